/** The buyer's bag: kept on the server, found by the hash of an HttpOnly cookie (issue 39). */
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { catalogItems } from "./catalog";
import { ticketOptions } from "./events";
import { orders } from "./orders";
import { productVariants } from "./product-options";

export const bags = pgTable(
  "bags",
  {
    /** The SHA-256 of the cookie's random value, so a copy of the table cannot be used as anyone's cookie. */
    id: text("id").primaryKey(),
    createdAt: createdAt(),
    /** A bag not used for 30 days is gone (app/bag/bag-store.server.ts). */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
    /** The order its last checkout made: once that order is paid, the bag empties. */
    checkoutOrderId: uuid("checkout_order_id").references(() => orders.id, { onDelete: "set null" }),
  },
  (t) => [index("bags_last_used_idx").on(t.lastUsedAt), index("bags_checkout_order_idx").on(t.checkoutOrderId)],
);

/**
 * One thing in a bag: a catalog item or a ticket option (a recurring event's option sells its next
 * session, as Order Now does). line_key is the stock key of what it names, one line per key.
 */
export const bagLines = pgTable(
  "bag_lines",
  {
    id: serial("id").primaryKey(),
    bagId: text("bag_id")
      .notNull()
      .references(() => bags.id, { onDelete: "cascade" }),
    lineKey: text("line_key").notNull(),
    catalogItemId: integer("catalog_item_id").references(() => catalogItems.id, { onDelete: "cascade" }),
    ticketOptionId: integer("ticket_option_id").references(() => ticketOptions.id, { onDelete: "cascade" }),
    /** The product's row (size, colour); line_key is then the row's stock key (issue 44). */
    variantId: integer("variant_id").references(() => productVariants.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("bag_lines_bag_key_idx").on(t.bagId, t.lineKey)],
);
