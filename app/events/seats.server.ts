import { and, eq, gt, inArray, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { stockHolds } from "~/db/schema";
import { sessionStockKey, ticketStockKey } from "~/stock/keys";
import { nextSession } from "./sessions.server";

export interface SeatCount {
  sold: number;
  held: number;
  /** Seats a visitor can still buy; null when the option has no capacity. */
  left: number | null;
  /** The seats there are in all (the session's own count, else the option's); null when not counted. */
  capacity: number | null;
}

/** Below this many seats left, the event page says how many ("3 of 8 seats left"). */
export const FEW_SEATS = 10;

/** "3 of 8 seats left" while fewer than ten remain and some do; null otherwise. */
export function seatsLeftLabel(count: SeatCount | undefined): string | null {
  if (!count || count.left === null || count.capacity === null || count.left <= 0 || count.left >= FEW_SEATS)
    return null;
  return `${count.left} of ${count.capacity} ${count.capacity === 1 ? "seat" : "seats"} left`;
}

interface SeatOption {
  id: number;
  capacity: number | null;
}

/** A recurring event's session on sale now (its start, and its own seat count if the owner set one). */
export type SaleSession = { startsAt: Date; capacity: number | null } | null;

export async function saleSession(
  db: Pick<Database, "select">,
  event: { id: string; recurring: string | null },
  now: Date,
): Promise<SaleSession> {
  if (event.recurring !== "monthly") return null;
  const session = await nextSession(db, event.id, now);
  return { startsAt: session.startsAt, capacity: session.capacity };
}

/** The hold key of an option's seats: a recurring event counts each session apart. */
export const seatKey = (optionId: number, session: SaleSession) =>
  session ? sessionStockKey(optionId, session.startsAt) : ticketStockKey(optionId);

/**
 * Sold (converted holds: seats have no stock column) and held (unexpired checkouts) seats of each
 * option, in one query, the same counts checkout uses before it places a hold.
 */
export async function seatCounts(
  db: Pick<Database, "select">,
  options: SeatOption[],
  session: SaleSession,
  now: Date,
): Promise<Map<number, SeatCount>> {
  const counts = new Map<number, SeatCount>();
  if (!options.length) return counts;
  const keyOf = new Map(options.map((o) => [seatKey(o.id, session), o]));
  const rows = await db
    .select({
      key: stockHolds.stockKey,
      status: stockHolds.status,
      n: sql<number>`coalesce(sum(${stockHolds.quantity}), 0)::int`,
    })
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
    const capacity = session?.capacity ?? option.capacity;
    counts.set(option.id, {
      sold,
      held,
      left: capacity === null ? null : Math.max(0, capacity - sold - held),
      capacity,
    });
  }
  return counts;
}
