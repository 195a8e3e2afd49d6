/** The waiting lists of sold-out ticket options and workshop sessions (issue 39, decision 122). */
import { sql } from "drizzle-orm";
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { ticketOptions } from "./events";

/**
 * One person waiting for seats of one stock key ("ticket:{optionId}" or "ticket:{optionId}:{session}").
 * Offered seats are held in stock_holds (waitlist_entry_id, no order) until the offer is used or lapses.
 */
export const waitlistEntries = pgTable(
  "waitlist_entries",
  {
    id: serial("id").primaryKey(),
    stockKey: text("stock_key").notNull(),
    ticketOptionId: integer("ticket_option_id")
      .notNull()
      .references(() => ticketOptions.id, { onDelete: "cascade" }),
    /** Trimmed and lower-cased, so one address joins a list once however it is typed. */
    email: text("email").notNull(),
    name: text("name").notNull(),
    seats: integer("seats").notNull(),
    status: text("status", { enum: ["waiting", "offered", "claimed", "lapsed", "removed"] })
      .notNull()
      .default("waiting"),
    /** The unguessable part of the offer link; set when the seats are offered. */
    offerToken: text("offer_token").unique(),
    offeredAt: timestamp("offered_at", { withTimezone: true }),
    offerExpiresAt: timestamp("offer_expires_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("waitlist_entries_key_status_idx").on(t.stockKey, t.status, t.id),
    uniqueIndex("waitlist_entries_one_per_email_idx")
      .on(t.stockKey, t.email)
      .where(sql`status in ('waiting', 'offered')`),
  ],
);
