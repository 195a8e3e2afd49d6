import type { AppContext } from "~/context.server";
import { hitRateLimit, type FixedWindow } from "~/contact/rate-limit.server";
import { requestClientKey } from "~/lib/client-address.server";

/**
 * Checkouts one client may start in a minute (decision 108). Unpaid orders are capped by the hold
 * budget; this also caps the provider checkouts behind them, which a failed or cancelled payment
 * gives back to the hold budget at once.
 */
export const CHECKOUT_RATE_LIMIT = { bucket: "checkout", limit: 20, windowMs: 60_000 } as const satisfies FixedWindow;

export const CHECKOUT_RATE_LIMIT_REASON =
  "Too many checkouts from your connection in the last minute. Please wait a minute, then try again.";

/**
 * Counts one checkout for the requesting client and says whether it may go ahead. It counts real
 * minutes, not the app clock, as the analytics budget does (decision 079): a clock pinned for a demo
 * or a browser test (`APP_NOW`) would make a minute's budget a lifetime's.
 */
export function withinCheckoutBudget(context: Pick<AppContext, "db" | "clientIp">, now = new Date()): Promise<boolean> {
  return hitRateLimit(context.db, CHECKOUT_RATE_LIMIT, requestClientKey(context), now);
}
