/** The stock held for checkouts: apart from catalog.ts, since a hold belongs to an order. */
import { index, integer, pgTable, serial, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { orders } from "./orders";
import { waitlistEntries } from "./waitlist";

/**
 * Units held by a checkout until it is paid (converted) or abandoned (released).
 * stock_key names what is held: "catalog:{id}", "ticket:{optionId}" or "ticket:{optionId}:{session}".
 */
export const stockHolds = pgTable(
  "stock_holds",
  {
    id: serial("id").primaryKey(),
    /** Null while the units are held for a waiting-list offer (waitlist_entry_id), until its checkout claims them. */
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "cascade" }),
    stockKey: text("stock_key").notNull(),
    quantity: integer("quantity").notNull(),
    status: text("status", { enum: ["held", "converted", "released"] })
      .notNull()
      .default("held"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** A keyed hash of the buyer's address, to cap the units one client holds unpaid (never the address itself). */
    clientKey: text("client_key"),
    waitlistEntryId: integer("waitlist_entry_id").references(() => waitlistEntries.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("stock_holds_key_status_idx").on(t.stockKey, t.status),
    index("stock_holds_order_idx").on(t.orderId),
    index("stock_holds_client_idx").on(t.clientKey, t.status),
    index("stock_holds_waitlist_entry_idx").on(t.waitlistEntryId),
  ],
);
