import { and, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { catalogItems, productVariants, stockHolds } from "~/db/schema";
import { activeHeld, countsUnits, lockStockKey, unitsForKey } from "./holds.server";

/*
 * What becomes of holds once their order is decided: converted to sales when it is paid (stock goes
 * down; seats count their converted holds), released when it is not, and units or seats returned to
 * sale by a refund. Placing holds lives in holds.server.ts.
 */

type HoldRow = typeof stockHolds.$inferSelect;

/** An order's holds not yet converted to sales. */
export function holdsToConvert(tx: Tx, orderId: string) {
  return tx
    .select()
    .from(stockHolds)
    .where(and(eq(stockHolds.orderId, orderId), ne(stockHolds.status, "converted")));
}

/**
 * A paid order's holds become sales: catalog stock goes down (seats count their converted holds).
 * A hold still in force is converted as it stands. One that ran out or was released (a payment that
 * arrived late) is converted only if a unit is still free; otherwise it is left released and its key
 * is returned, so the order can be flagged for the owner: never negative stock, never an oversold seat.
 */
export async function convertHolds(
  tx: Tx,
  orderId: string,
  now: Date,
  /** `holdsToConvert(tx, orderId)`, when the caller read them already (after locking the order). */
  alreadyRead?: HoldRow[],
): Promise<{ unavailable: string[] }> {
  const holds = alreadyRead ?? (await holdsToConvert(tx, orderId));
  const unavailable: string[] = [];
  // Holds of things without a count convert as they stand, all in one statement: each trip to the
  // database while the transaction holds PGlite's one connection waits on the main thread (decision 141).
  const uncounted = holds.filter((hold) => !countsUnits(hold.stockKey)).map((hold) => hold.id);
  if (uncounted.length)
    await tx.update(stockHolds).set({ status: "converted" }).where(inArray(stockHolds.id, uncounted));
  for (const hold of holds) {
    if (!countsUnits(hold.stockKey)) continue;
    await lockStockKey(tx, hold.stockKey);
    const inForce = hold.status === "held" && hold.expiresAt > now;
    if (!inForce) {
      const units = await unitsForKey(tx, hold.stockKey);
      if (units !== null && units - (await activeHeld(tx, hold.stockKey, now)) < hold.quantity) {
        await tx.update(stockHolds).set({ status: "released" }).where(eq(stockHolds.id, hold.id));
        unavailable.push(hold.stockKey);
        continue;
      }
    }
    await tx.update(stockHolds).set({ status: "converted" }).where(eq(stockHolds.id, hold.id));
    await moveStock(tx, hold.stockKey, -hold.quantity, now);
  }
  return { unavailable };
}

/**
 * A sale takes units off the row that counts them, a return puts them back: a product's stock, or one of its
 * rows' (issue 44). Seats have no row: they are counted from converted holds.
 */
async function moveStock(tx: Tx, key: string, delta: number, now: Date): Promise<void> {
  const [kind, id] = key.split(":");
  if (kind === "catalog") {
    await tx
      .update(catalogItems)
      .set({ stockQuantity: sql`greatest(${catalogItems.stockQuantity} + ${delta}, 0)`, updatedAt: now })
      .where(and(eq(catalogItems.id, Number(id)), isNotNull(catalogItems.stockQuantity)));
  } else if (kind === "variant") {
    await tx
      .update(productVariants)
      .set({ stockQuantity: sql`greatest(${productVariants.stockQuantity} + ${delta}, 0)`, updatedAt: now })
      .where(and(eq(productVariants.id, Number(id)), isNotNull(productVariants.stockQuantity)));
  }
}

/** Gives an unpaid order's units back. */
export async function releaseHolds(tx: Tx, orderIds: string[]): Promise<void> {
  if (!orderIds.length) return;
  await tx
    .update(stockHolds)
    .set({ status: "released" })
    .where(and(inArray(stockHolds.orderId, orderIds), eq(stockHolds.status, "held")));
}

/**
 * A refunded order's units go back on sale when the owner asks: catalog stock goes up again, and a
 * seat's converted hold is released (seats sold are counted from converted holds).
 */
export async function returnUnits(tx: Tx, orderId: string, now: Date): Promise<number> {
  const converted = await tx
    .select()
    .from(stockHolds)
    .where(and(eq(stockHolds.orderId, orderId), eq(stockHolds.status, "converted")));
  const holds = converted.filter((hold) => countsUnits(hold.stockKey));
  for (const hold of holds) {
    await lockStockKey(tx, hold.stockKey);
    await tx.update(stockHolds).set({ status: "released" }).where(eq(stockHolds.id, hold.id));
    await moveStock(tx, hold.stockKey, hold.quantity, now);
  }
  return holds.reduce((sum, h) => sum + h.quantity, 0);
}

/**
 * Some of a refunded order's units go back on sale (a refund of part of one line): its converted holds
 * under `key` (`catalog:{id}`, or `ticket:{optionId}` and its sessions) shrink by `units`, and catalog
 * stock goes up by as many. Returns how many went back.
 */
export async function returnSomeUnits(tx: Tx, orderId: string, key: string, units: number, now: Date): Promise<number> {
  const converted = await tx
    .select()
    .from(stockHolds)
    .where(
      and(
        eq(stockHolds.orderId, orderId),
        eq(stockHolds.status, "converted"),
        sql`(${stockHolds.stockKey} = ${key} or ${stockHolds.stockKey} like ${`${key}:%`})`,
      ),
    );
  let left = units;
  for (const hold of converted.filter((h) => countsUnits(h.stockKey))) {
    if (left <= 0) break;
    await lockStockKey(tx, hold.stockKey);
    const n = Math.min(left, hold.quantity);
    await tx
      .update(stockHolds)
      .set(n === hold.quantity ? { status: "released" } : { quantity: hold.quantity - n })
      .where(eq(stockHolds.id, hold.id));
    await moveStock(tx, hold.stockKey, n, now);
    left -= n;
  }
  return units - left;
}
