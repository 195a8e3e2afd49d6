/** Who may see a paid order's contents: its private page's token and the buyer's browser (decision 106). */
import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { orders } from "./orders";

/**
 * One row per order that has a private page. Only hashes are stored: the page's token is derived from
 * SESSION_SECRET and the order id when a link is shown or emailed, and the buyer's cookie token is
 * random and lives only in her browser.
 */
export const orderAccess = pgTable("order_access", {
  orderId: uuid("order_id")
    .primaryKey()
    .references(() => orders.id, { onDelete: "cascade" }),
  /** SHA-256 of the /order/{token} page's token: the page is found by it. */
  pageTokenHash: text("page_token_hash").notNull().unique(),
  /** SHA-256 of the HttpOnly cookie set in the browser that created the checkout; null for an order made elsewhere. */
  buyerTokenHash: text("buyer_token_hash"),
  /** Until when that browser is the buyer's: it shows the tickets and signs the member in. */
  buyerExpiresAt: timestamp("buyer_expires_at", { withTimezone: true }),
  createdAt: createdAt(),
});
