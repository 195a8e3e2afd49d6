import { sql } from "drizzle-orm";
import { stockHolds } from "~/db/schema";
import {
  holdLimitReason,
  HoldLimitError,
  MAX_HELD_UNITS_PER_CLIENT,
  MAX_HELD_UNITS_PER_ITEM,
  OutOfStockError,
} from "./holds.server";

/**
 * The hold of a counted checkout (stock or seats) as parts of the one statement that stores the order
 * (createPendingOrder), as `unpaidBudget` is for uncounted ones (decision 142). `held` takes the client's
 * and the key's locks and counts afresh (migration 0031); `allowed` yields a row only when the client's
 * budget and the units left both fit `quantity`; `hold` is the hold row to store from the order it allowed.
 * The locks end with the statement, so no answer travels to the app and back while they are held.
 */
export function countedHold(hold: { key: string; clientKey: string | null; quantity: number; now: Date }) {
  const { key, clientKey, quantity, now } = hold;
  return {
    held: sql`select units, taken, item, total
      from counted_hold_counts(${key}, ${clientKey}::text, ${sql.param(now, stockHolds.expiresAt)}::timestamptz)`,
    allowed: sql`select 1 from budget
      where (units is null or units - taken >= ${quantity})
        and (item is null or (item + ${quantity} <= ${MAX_HELD_UNITS_PER_ITEM} and total + ${quantity} <= ${MAX_HELD_UNITS_PER_CLIENT}))`,
    hold: (orderId: string, minutes: number) => ({
      orderId,
      stockKey: key,
      quantity,
      expiresAt: new Date(now.getTime() + minutes * 60_000),
      clientKey,
    }),
  };
}

/**
 * Why the statement stored no order, from the counts it read: the client's budget first, then the units
 * left, as placeHold refuses.
 */
export function countedHoldRefusal(
  counts: { units: unknown; taken: unknown; item: unknown; total: unknown },
  refusal: { itemName: string; soldOutReason: string; quantity: number; minutes: number },
): HoldLimitError | OutOfStockError {
  if (counts.item != null) {
    const held = { item: Number(counts.item), all: Number(counts.total) };
    const reason = holdLimitReason(refusal.itemName, held, refusal.quantity, refusal.minutes);
    if (reason) return new HoldLimitError(reason);
  }
  const left = counts.units == null ? 0 : Math.max(0, Number(counts.units) - Number(counts.taken));
  return new OutOfStockError(refusal.soldOutReason, left);
}
