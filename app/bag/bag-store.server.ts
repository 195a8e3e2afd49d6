import { and, asc, eq, gt, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { insertRowSelect } from "~/db/insert-row-select.server";
import { bagLines, bags, orders } from "~/db/schema";
import { catalogStockKey, ticketStockKey, variantStockKey } from "~/stock/keys";
import type { SellableRef } from "~/orders/sellable.server";
import { BAG_LIFETIME_MS, bagIdOf } from "./bag-cookie.server";

export type BagLineRow = typeof bagLines.$inferSelect;

/** The line key of what a bag line names: the stock key its units are counted by (one line per key). */
export const lineKeyOf = (ref: SellableRef) =>
  ref.kind === "ticket"
    ? ticketStockKey(ref.id)
    : ref.choice?.variantId
      ? variantStockKey(ref.choice.variantId)
      : catalogStockKey(ref.id);

export const refOfLine = (line: Pick<BagLineRow, "catalogItemId" | "ticketOptionId" | "variantId">): SellableRef =>
  line.catalogItemId !== null
    ? {
        kind: "catalog",
        id: line.catalogItemId,
        ...(line.variantId !== null && { choice: { variantId: line.variantId } }),
      }
    : { kind: "ticket", id: line.ticketOptionId! };

/** The row of a line for `ref`: its key, what it names, and how many. */
const lineRow = <Id extends string | SQL>(bagId: Id, ref: SellableRef, quantity: number) => ({
  bagId,
  lineKey: lineKeyOf(ref),
  catalogItemId: ref.kind === "catalog" ? ref.id : null,
  ticketOptionId: ref.kind === "ticket" ? ref.id : null,
  variantId: ref.kind === "catalog" ? (ref.choice?.variantId ?? null) : null,
  quantity,
});

const BAG_TOUCH_EVERY_MS = 60 * 60 * 1000;

export interface OpenedBag {
  bagId: string | null;
  lines: BagLineRow[];
  /** When the bag was last marked used; null without a bag. */
  lastUsedAt: Date | null;
}

const liveSince = (now: Date) => new Date(now.getTime() - BAG_LIFETIME_MS);

/** A checkout of the bag was paid (or refunded since): what it bought leaves the bag. */
const BOUGHT = new Set<string>(["paid", "refunded", "partially_refunded"]);

/**
 * The live bag a cookie names and its lines, in one statement: the bag's row with its checkout's
 * status, joined to its lines. A bag whose checkout was paid is emptied first, so what was bought never
 * stays in it, wherever it was paid.
 */
export async function openBag(db: Database, token: string | null, now: Date): Promise<OpenedBag> {
  if (!token) return { bagId: null, lines: [], lastUsedAt: null };
  const id = bagIdOf(token);
  const rows = await db
    .select({ checkoutStatus: orders.status, lastUsedAt: bags.lastUsedAt, line: bagLines })
    .from(bags)
    .leftJoin(orders, eq(orders.id, bags.checkoutOrderId))
    .leftJoin(bagLines, eq(bagLines.bagId, bags.id))
    .where(and(eq(bags.id, id), gt(bags.lastUsedAt, liveSince(now))))
    .orderBy(asc(bagLines.id));
  const [row] = rows;
  if (!row) return { bagId: null, lines: [], lastUsedAt: null };
  if (row.checkoutStatus && BOUGHT.has(row.checkoutStatus)) {
    await emptyBag(db, id);
    return { bagId: id, lines: [], lastUsedAt: row.lastUsedAt };
  }
  return { bagId: id, lines: rows.flatMap((r) => (r.line ? [r.line] : [])), lastUsedAt: row.lastUsedAt };
}

/**
 * Stores a new bag for a fresh cookie with its first line, and forgets a few bags unused for 30 days
 * while at it, so old bags go without a job of their own: one statement, so the first "Add to bag"
 * waits on the database once, not four times in a row. The cookie is 32 new random bytes, so no bag
 * has its id yet.
 */
export async function createBagWithLine(
  db: Database,
  token: string,
  ref: SellableRef,
  quantity: number,
  now: Date,
): Promise<string> {
  const id = bagIdOf(token);
  const one = sql`(select 1) as one`;
  await db.execute(
    sql`with swept as (delete from ${bags} where ${bags.id} in
        (select ${bags.id} from ${bags} where ${bags.lastUsedAt} < ${liveSince(now)} limit 100)),
      bag as (${insertRowSelect(bags, { id, createdAt: now, lastUsedAt: now }, one)} returning id)
      ${insertRowSelect(bagLines, lineRow(sql`bag.id`, ref, quantity), sql`bag`)}`,
  );
  return id;
}

/**
 * Marks the bag used now, so its 30 days start again; at most once an hour, which spares most views and
 * changes a write: a bag may lapse up to an hour before 30 days from its very last use.
 */
export async function keepBagAlive(db: Database, bag: OpenedBag, now: Date): Promise<void> {
  if (!bag.bagId || (bag.lastUsedAt && now.getTime() - bag.lastUsedAt.getTime() < BAG_TOUCH_EVERY_MS)) return;
  await db.update(bags).set({ lastUsedAt: now }).where(eq(bags.id, bag.bagId));
}

export const unitsInBag = (lines: Pick<BagLineRow, "quantity">[]) => lines.reduce((n, l) => n + l.quantity, 0);

/** Sets a line to `quantity`, adding the line when the bag has none for that key. */
export async function putLine(db: Database, bagId: string, ref: SellableRef, quantity: number): Promise<void> {
  await db
    .insert(bagLines)
    .values(lineRow(bagId, ref, quantity))
    .onConflictDoUpdate({ target: [bagLines.bagId, bagLines.lineKey], set: { quantity } });
}

export async function setLineQuantity(db: Database, bagId: string, lineId: number, quantity: number) {
  await db
    .update(bagLines)
    .set({ quantity })
    .where(and(eq(bagLines.bagId, bagId), eq(bagLines.id, lineId)));
}

export async function removeLine(db: Database, bagId: string, lineId: number): Promise<void> {
  await db.delete(bagLines).where(and(eq(bagLines.bagId, bagId), eq(bagLines.id, lineId)));
}

/** Remembers the order a bag's checkout made, so the bag empties once that order is paid. */
export async function rememberCheckout(db: Database, bagId: string, orderId: string): Promise<void> {
  await db.update(bags).set({ checkoutOrderId: orderId }).where(eq(bags.id, bagId));
}

/** Empties a bag whose checkout was paid (by the webhook or the provider's answer, wherever the buyer is). */
async function emptyBag(db: Database, bagId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(bagLines).where(eq(bagLines.bagId, bagId));
    await tx.update(bags).set({ checkoutOrderId: null }).where(eq(bags.id, bagId));
  });
}
