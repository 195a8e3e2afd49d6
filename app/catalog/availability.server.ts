import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { stockHolds } from "~/db/schema";

/** The stock key a hold uses for a catalog item. */
export const catalogStockKey = (itemId: number) => `catalog:${itemId}`;

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
