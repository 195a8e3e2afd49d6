import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { eventSessions, stockHolds, ticketOptions } from "~/db/schema";
import { sessionFromStockKey } from "./keys";

/**
 * Units currently held by unexpired checkouts, per stock key. Stock left to sell is
 * `stock_quantity - held` (stock_quantity is decremented when an order is paid).
 */
export async function heldUnits(db: Pick<Database, "select">, keys: string[], now: Date): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  if (!keys.length) return held;
  const rows = await db
    .select({ key: stockHolds.stockKey, units: sql<number>`coalesce(sum(${stockHolds.quantity}), 0)::int` })
    .from(stockHolds)
    .where(and(inArray(stockHolds.stockKey, keys), eq(stockHolds.status, "held"), gt(stockHolds.expiresAt, now)))
    .groupBy(stockHolds.stockKey);
  for (const row of rows) held.set(row.key, Number(row.units));
  return held;
}

/** Units a visitor can still buy: null for unlimited, never below zero. */
export function unitsAvailable(stockQuantity: number | null, held: number): number | null {
  if (stockQuantity === null) return null;
  return Math.max(0, stockQuantity - held);
}

/** The owner's capacity for the session a stock key names, when she set one. */
export async function sessionCapacityForKey(db: Pick<Database, "select">, key: string): Promise<number | null> {
  const [kind, id] = key.split(":");
  const startsAt = sessionFromStockKey(key);
  if (kind !== "ticket" || !startsAt) return null;
  const [row] = await db
    .select({ capacity: eventSessions.capacity })
    .from(eventSessions)
    .innerJoin(ticketOptions, eq(ticketOptions.eventId, eventSessions.eventId))
    .where(and(eq(ticketOptions.id, Number(id)), eq(eventSessions.startsAt, startsAt)))
    .limit(1);
  return row?.capacity ?? null;
}

/** Seats already sold for a ticket key: its converted holds (seats have no stock column to decrement). */
export async function soldSeats(db: Pick<Database, "execute">, key: string): Promise<number> {
  const result = await db.execute(
    sql`select coalesce(sum(quantity), 0)::int as n from stock_holds where stock_key = ${key} and status = 'converted'`,
  );
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

/** `soldSeats` of many keys in one statement (a bag's seats, issue 39); a key with none sold is absent. */
export async function soldSeatsByKey(db: Pick<Database, "select">, keys: string[]): Promise<Map<string, number>> {
  const sold = new Map<string, number>();
  if (!keys.length) return sold;
  const rows = await db
    .select({ key: stockHolds.stockKey, units: sql<number>`coalesce(sum(${stockHolds.quantity}), 0)::int` })
    .from(stockHolds)
    .where(and(inArray(stockHolds.stockKey, keys), eq(stockHolds.status, "converted")))
    .groupBy(stockHolds.stockKey);
  for (const row of rows) sold.set(row.key, Number(row.units));
  return sold;
}
