import { and, eq, gt, inArray, ne, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { catalogItems, stockHolds, ticketOptions } from "~/db/schema";
import { sessionCapacityForKey } from "~/events/sessions.server";
import { soldSeats } from "./sellable.server";

/** The database or an open transaction: holds are always changed inside the order's transaction. */
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export class OutOfStockError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "OutOfStockError";
  }
}

/**
 * Serialises everything that counts or changes one stock key until the transaction ends. A
 * transaction-scoped advisory lock works the same on PGlite and PostgreSQL and also covers ticket
 * seats, which have no row of their own to lock (decision 042).
 */
export async function lockStockKey(tx: Tx, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

/** Units that exist for a key before holds: the catalog row's stock, or capacity minus seats sold. */
async function unitsForKey(tx: Tx, key: string): Promise<number | null> {
  const [kind, id] = key.split(":");
  if (kind === "catalog") {
    const [row] = await tx.select({ n: catalogItems.stockQuantity }).from(catalogItems).where(eq(catalogItems.id, Number(id)));
    return row?.n ?? null;
  }
  if (kind === "ticket") {
    const [row] = await tx.select({ capacity: ticketOptions.capacity }).from(ticketOptions).where(eq(ticketOptions.id, Number(id)));
    const capacity = (await sessionCapacityForKey(tx, key)) ?? row?.capacity ?? null;
    if (capacity === null) return null;
    return capacity - (await soldSeats(tx, key));
  }
  return null;
}

async function activeHeld(tx: Tx, key: string, now: Date): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`coalesce(sum(${stockHolds.quantity}), 0)::int` })
    .from(stockHolds)
    .where(and(eq(stockHolds.stockKey, key), eq(stockHolds.status, "held"), gt(stockHolds.expiresAt, now)));
  return Number(row?.n ?? 0);
}

/** Holds `quantity` units for an order, or throws OutOfStockError; call inside the order's transaction. */
export async function placeHold(
  tx: Tx,
  hold: { orderId: string; key: string; quantity: number; soldOutReason: string; now: Date; minutes: number },
): Promise<void> {
  await lockStockKey(tx, hold.key);
  const units = await unitsForKey(tx, hold.key);
  if (units !== null && units - (await activeHeld(tx, hold.key, hold.now)) < hold.quantity) {
    throw new OutOfStockError(hold.soldOutReason);
  }
  await tx.insert(stockHolds).values({
    orderId: hold.orderId,
    stockKey: hold.key,
    quantity: hold.quantity,
    expiresAt: new Date(hold.now.getTime() + hold.minutes * 60_000),
  });
}

/**
 * A paid order's holds become sales: catalog stock goes down (seats count their converted holds).
 * A hold that had already expired or been released is converted too: the money was taken, so the
 * sale stands, and stock never goes below zero.
 */
export async function convertHolds(tx: Tx, orderId: string): Promise<void> {
  const holds = await tx
    .select()
    .from(stockHolds)
    .where(and(eq(stockHolds.orderId, orderId), ne(stockHolds.status, "converted")));
  for (const hold of holds) {
    await lockStockKey(tx, hold.stockKey);
    await tx.update(stockHolds).set({ status: "converted" }).where(eq(stockHolds.id, hold.id));
    const [kind, id] = hold.stockKey.split(":");
    if (kind === "catalog") {
      await tx
        .update(catalogItems)
        .set({ stockQuantity: sql`greatest(${catalogItems.stockQuantity} - ${hold.quantity}, 0)`, updatedAt: new Date() })
        .where(eq(catalogItems.id, Number(id)));
    }
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
