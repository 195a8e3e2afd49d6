import { and, eq, gt, inArray, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { stockHolds } from "~/db/schema";
import { monthlySession, ticketStockKey } from "~/orders/sellable.server";

export interface SeatCount {
  sold: number;
  held: number;
  /** Seats a visitor can still buy; null when the option has no capacity. */
  left: number | null;
}

interface SeatOption {
  id: number;
  capacity: number | null;
}

/** The hold key of an option's seats today: a recurring event counts each monthly session apart. */
export const seatKey = (optionId: number, recurring: string | null, now: Date) =>
  ticketStockKey(optionId, recurring === "monthly" ? monthlySession(now) : undefined);

/**
 * Sold (converted holds: seats have no stock column) and held (unexpired checkouts) seats of each
 * option, in one query, the same counts checkout uses before it places a hold.
 */
export async function seatCounts(
  db: Pick<Database, "select">,
  options: SeatOption[],
  recurring: string | null,
  now: Date,
): Promise<Map<number, SeatCount>> {
  const counts = new Map<number, SeatCount>();
  if (!options.length) return counts;
  const keyOf = new Map(options.map((o) => [seatKey(o.id, recurring, now), o]));
  const rows = await db
    .select({ key: stockHolds.stockKey, status: stockHolds.status, n: sql<number>`coalesce(sum(${stockHolds.quantity}), 0)::int` })
    .from(stockHolds)
    .where(
      and(
        inArray(stockHolds.stockKey, [...keyOf.keys()]),
        or(eq(stockHolds.status, "converted"), and(eq(stockHolds.status, "held"), gt(stockHolds.expiresAt, now))),
      ),
    )
    .groupBy(stockHolds.stockKey, stockHolds.status);
  for (const [key, option] of keyOf) {
    const sold = Number(rows.find((r) => r.key === key && r.status === "converted")?.n ?? 0);
    const held = Number(rows.find((r) => r.key === key && r.status === "held")?.n ?? 0);
    counts.set(option.id, { sold, held, left: option.capacity === null ? null : Math.max(0, option.capacity - sold - held) });
  }
  return counts;
}
