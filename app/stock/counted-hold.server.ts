import { sql } from "drizzle-orm";
import { stockHolds } from "~/db/schema";
import {
  holdLimitReason,
  HoldLimitError,
  holdRow,
  judgeHolds,
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
    hold: (orderId: string, minutes: number) => holdRow({ orderId, key, quantity, clientKey, now, minutes }),
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

type BagHold = { key: string; quantity: number; soldOutReason: string; itemName: string };

/**
 * `countedHold` for every line of a bag at once, with the locks `placeHolds` takes in the same order (the
 * client's, then each counted key's in the order given: callers sort them). `held` reads a row per key;
 * `allowed` yields a row only when every key has the units the bag asks of it and the client's budget
 * takes them all, which is what judging the lines one by one, each counting those before it, decides.
 */
export function countedHolds(bag: { holds: BagHold[]; clientKey: string | null; now: Date }) {
  const { holds, clientKey, now } = bag;
  const asked = new Map<string, number>();
  for (const hold of holds) asked.set(hold.key, (asked.get(hold.key) ?? 0) + hold.quantity);
  const all = [...asked.values()].reduce((sum, n) => sum + n, 0);
  const keys = sql.join(
    [...asked.keys()].map((key) => sql`${key}`),
    sql`, `,
  );
  const demand = sql.join(
    [...asked].map(([key, quantity]) => sql`(${key}::text, ${quantity}::int)`),
    sql`, `,
  );
  return {
    held: sql`select key, units, taken, item, total
      from counted_holds_counts(array[${keys}]::text[], ${clientKey}::text, ${sql.param(now, stockHolds.expiresAt)}::timestamptz)`,
    allowed: sql`select 1 where not exists (
        select 1 from budget b join (values ${demand}) as asked(key, quantity) on asked.key = b.key
         where (b.units is not null and b.units - b.taken < asked.quantity)
            or (b.item is not null and b.item + asked.quantity > ${MAX_HELD_UNITS_PER_ITEM})
            or (b.total is not null and b.total + ${all} > ${MAX_HELD_UNITS_PER_CLIENT}))`,
    hold: (orderId: string, minutes: number, hold: BagHold) =>
      holdRow({ orderId, key: hold.key, quantity: hold.quantity, clientKey, now, minutes }),
  };
}

/** Why the bag's statement stored no order, from the rows `held` read: the first line that does not fit. */
export function countedHoldsRefusal(
  rows: { key: unknown; units: unknown; taken: unknown; item: unknown; total: unknown }[],
  holds: BagHold[],
  clientKey: string | null,
  minutes: number,
): Error {
  const number = (value: unknown) => (value == null ? null : Number(value));
  const units = new Map(rows.map((row) => [String(row.key), number(row.units)]));
  const held = new Map(rows.map((row) => [String(row.key), number(row.taken) ?? 0]));
  const byClient = new Map(rows.map((row) => [String(row.key), number(row.item) ?? 0]));
  const clientAll = number(rows[0]?.total) ?? 0;
  try {
    judgeHolds(holds, { clientKey, byClient, clientAll, units, held, minutes });
  } catch (error) {
    return error as Error;
  }
  // The statement and the judging read the same counts, so this is not reached.
  return new Error("The bag could not be held.");
}
