import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { cookieAttributes, readCookie } from "~/auth/cookies.server";
import type { AppContext } from "~/context.server";
import type { Database, Tx } from "~/db/client.server";
import { orderAccess } from "~/db/schema";

/**
 * Who may see what a paid order holds (decision 106). Two keys, both stored only as hashes:
 * - the private page's token (/order/{token}), which the buyer bookmarks and the emails carry;
 * - the buyer's browser: a random token in an HttpOnly cookie set with the checkout, which lets the
 *   confirmation page show the tickets and sign a new member in to /account. Never in a URL.
 */

/** How long the browser that made a checkout counts as the buyer's: the cookie's life and the server's limit. */
export const BUYER_BROWSER_HOURS = 24;
const BUYER_MS = BUYER_BROWSER_HOURS * 3_600_000;

/** The page token's shape: 32 base64url characters, 192 bits. */
export const ORDER_PAGE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;
const BUYER_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

type CookieContext = Pick<AppContext, "config">;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export function buyerCookieName(context: CookieContext): string {
  return context.config.isProduction ? "__Host-buyer" : "buyer";
}

/**
 * The order page's token, signed with SESSION_SECRET over the order id: the payment's email and the
 * confirmation page can both show the same link without the raw token being stored anywhere.
 */
export function orderPageToken(secret: string, orderId: string): string {
  return createHmac("sha256", secret).update(`order-page:${orderId}`).digest("base64url").slice(0, 32);
}

export const orderPagePath = (secret: string, orderId: string) => `/order/${orderPageToken(secret, orderId)}`;

export const orderPageUrl = (siteUrl: string, secret: string, orderId: string) =>
  `${siteUrl.replace(/\/$/, "")}${orderPagePath(secret, orderId)}`;

/**
 * The statement (not yet run) that records the order page's token hash. A changed SESSION_SECRET
 * changes the token, and the newest link shown wins, as it does for the members' renew links.
 */
export function orderPageAccessUpsert(tx: Pick<Tx, "insert">, secret: string, orderId: string, now: Date) {
  const pageTokenHash = sha256(orderPageToken(secret, orderId));
  return tx
    .insert(orderAccess)
    .values({ orderId, pageTokenHash, createdAt: now })
    .onConflictDoUpdate({
      target: orderAccess.orderId,
      set: { pageTokenHash },
      setWhere: sql`${orderAccess.pageTokenHash} <> ${pageTokenHash}`,
    });
}

/** The order_access row that binds a new checkout's order to the browser that made it. */
export type BuyerAccessRow = typeof orderAccess.$inferInsert;

/**
 * A new checkout's binding to the browser that makes it: the row to store with the order (its id is
 * made when the order is) and the Set-Cookie header to send with the redirect to the payment page. A
 * fresh token every checkout, so a cookie planted in the browser beforehand can never open the order.
 */
export function newBuyerBinding(context: Pick<AppContext, "config" | "clock">): {
  row: (orderId: string) => BuyerAccessRow;
  cookie: string;
} {
  const token = randomBytes(32).toString("base64url");
  const now = context.clock.now();
  const buyer = { buyerTokenHash: sha256(token), buyerExpiresAt: new Date(now.getTime() + BUYER_MS) };
  return {
    row: (orderId) => ({
      orderId,
      pageTokenHash: sha256(orderPageToken(context.config.sessionSecret, orderId)),
      createdAt: now,
      ...buyer,
    }),
    cookie: `${buyerCookieName(context)}=${token}; ${cookieAttributes(context, BUYER_MS / 1000)}`,
  };
}

/** Whether this request comes from the browser that made the order's checkout, within its time. */
export async function isBuyerBrowser(
  request: Request,
  context: Pick<AppContext, "db" | "config" | "clock">,
  orderId: string,
): Promise<boolean> {
  const token = readCookie(request, buyerCookieName(context));
  if (!token || !BUYER_TOKEN_PATTERN.test(token)) return false;
  const [row] = await context.db
    .select({ hash: orderAccess.buyerTokenHash, expiresAt: orderAccess.buyerExpiresAt })
    .from(orderAccess)
    .where(eq(orderAccess.orderId, orderId))
    .limit(1);
  if (!row?.hash || !row.expiresAt || row.expiresAt <= context.clock.now()) return false;
  const given = Buffer.from(sha256(token));
  const stored = Buffer.from(row.hash);
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The order a private page's token opens, or undefined. */
export async function orderIdForPageToken(db: Pick<Database, "select">, token: string): Promise<string | undefined> {
  if (!ORDER_PAGE_TOKEN_PATTERN.test(token)) return undefined;
  const [row] = await db
    .select({ orderId: orderAccess.orderId })
    .from(orderAccess)
    .where(eq(orderAccess.pageTokenHash, sha256(token)))
    .limit(1);
  return row?.orderId;
}
