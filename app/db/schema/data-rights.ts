/** A person's rights over their data (issue 42): links and sessions to see it, and erasure requests. */
import { index, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/** One-time links to the "Your data" page, emailed on request: only the token's hash is kept. */
export const dataAccessLinks = pgTable(
  "data_access_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    /** Lower case: the address the records are found by. */
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("data_access_links_expires_idx").on(t.expiresAt)],
);

/** The browser that opened a link: it sees that address's data for an hour (the cookie's token hashed). */
export const dataAccessSessions = pgTable(
  "data_access_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("data_access_sessions_expires_idx").on(t.expiresAt)],
);

/**
 * A request to erase everything the shop holds for an address, carried out once at `scheduledFor`
 * (7 days on, so a mistake can be undone). Once done, `email` is cleared: the row keeps only the
 * anonymous reference its orders now carry and the dates.
 */
export const erasureRequests = pgTable(
  "erasure_requests",
  {
    id: serial("id").primaryKey(),
    email: text("email"),
    /** The anonymous name the person's orders carry after erasure, e.g. "Erased ER-7K2Q9M". */
    reference: text("reference").notNull().unique(),
    /** person: asked from "Your data"; owner: entered in the admin on the person's behalf. */
    requestedBy: text("requested_by", { enum: ["person", "owner"] }).notNull(),
    /** What to do with orders still open: erase them with the rest, or wait until they are closed. */
    openOrders: text("open_orders", { enum: ["erase", "wait"] }).notNull(),
    status: text("status", { enum: ["scheduled", "cancelled", "done"] })
      .notNull()
      .default("scheduled"),
    /** SHA-256 of the undo link's token, emailed in the confirmation; null once done or undone. */
    undoTokenHash: text("undo_token_hash").unique(),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull(),
    scheduledFor: timestamp("scheduled_for", { withTimezone: true }).notNull(),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    carriedOutAt: timestamp("carried_out_at", { withTimezone: true }),
  },
  (t) => [index("erasure_requests_due_idx").on(t.status, t.scheduledFor)],
);
