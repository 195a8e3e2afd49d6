/**
 * A product's rows (issue 44): reading them with what is left of each, and saving the owner's options and grid.
 * Each row's stock is counted under its own stock key, locked the way product stock is (decision 042), so an edit
 * never races a checkout's hold.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { bagLines, catalogItems, orderLines, orders, productVariants, stockHolds } from "~/db/schema";
import { heldUnits, unitsAvailable } from "~/stock/availability.server";
import { lockStockKey } from "~/stock/holds.server";
import { catalogStockKey, variantStockKey } from "~/stock/keys";
import type { ProductOption, VariantView } from "./product-options";

export type VariantRow = typeof productVariants.$inferSelect;

/** Every row of these products in the owner's order, with the units a visitor can buy now. */
export async function listVariants(
  db: Pick<Database, "select">,
  itemIds: number[],
  now: Date,
): Promise<Map<number, (VariantView & { stockQuantity: number | null })[]>> {
  const byItem = new Map<number, (VariantView & { stockQuantity: number | null })[]>();
  if (!itemIds.length) return byItem;
  const rows = await db
    .select()
    .from(productVariants)
    .where(inArray(productVariants.catalogItemId, itemIds))
    .orderBy(asc(productVariants.catalogItemId), asc(productVariants.position), asc(productVariants.id));
  const held = await heldUnits(
    db,
    rows.filter((r) => r.stockQuantity !== null).map((r) => variantStockKey(r.id)),
    now,
  );
  for (const r of rows) {
    const list = byItem.get(r.catalogItemId) ?? [];
    list.push({
      id: r.id,
      value1: r.value1,
      value2: r.value2,
      priceCents: r.priceCents,
      image: r.image,
      enabled: r.enabled,
      stockQuantity: r.stockQuantity,
      available: unitsAvailable(r.stockQuantity, held.get(variantStockKey(r.id)) ?? 0),
    });
    byItem.set(r.catalogItemId, list);
  }
  return byItem;
}

/** One row of the owner's grid as her form sends it, after validation. */
export interface GridRow {
  value1: string;
  value2: string;
  stockQuantity: number | null;
  priceCents: number | null;
  image: string | null;
  enabled: boolean;
}

export type SaveOptionsResult =
  { ok: true; rows: number } | { ok: false; error: string; row?: { value1: string; value2: string } };

const rowKey = (r: { value1: string; value2: string }) => `${r.value1}\u0000${r.value2}`;

/**
 * Saves a product's options and its grid in one transaction. A row that is no longer in the grid is deleted when
 * nothing names it, else switched off and kept for the orders and holds that name it. A row's stock can't go below
 * what checkouts hold of it. With no options, the product sells as one thing again: its rows are put away the same
 * way and its own stock counts.
 */
export async function saveProductOptions(
  db: Database,
  args: { itemId: number; options: ProductOption[]; rows: GridRow[]; now: Date },
): Promise<SaveOptionsResult> {
  return db.transaction(async (tx) => {
    await lockStockKey(tx, catalogStockKey(args.itemId));
    const [item] = await tx
      .select({ id: catalogItems.id, images: catalogItems.images })
      .from(catalogItems)
      .where(and(eq(catalogItems.id, args.itemId), eq(catalogItems.archived, false)));
    if (!item) return { ok: false, error: "This product no longer exists." };
    const badPhoto = args.rows.find((r) => r.image !== null && !item.images.includes(r.image));
    if (badPhoto) return { ok: false, error: "A row's photo must be one of the product's photos.", row: badPhoto };

    const existing = await tx
      .select()
      .from(productVariants)
      .where(eq(productVariants.catalogItemId, args.itemId))
      .orderBy(asc(productVariants.id));
    // In the keys' text order, the order a bag's checkout locks them in, so the two never wait on each other.
    const keys = existing.map((r) => variantStockKey(r.id)).sort();
    for (const key of keys) await lockStockKey(tx, key);
    const byKey = new Map(existing.map((r) => [rowKey(r), r]));
    const held = await heldUnits(tx, keys, args.now);
    for (const row of args.rows) {
      const before = byKey.get(rowKey(row));
      const holding = before ? (held.get(variantStockKey(before.id)) ?? 0) : 0;
      if (row.stockQuantity !== null && row.stockQuantity < holding) {
        return {
          ok: false,
          error:
            `${holding} ${holding === 1 ? "unit is" : "units are"} held by checkouts in progress: ` +
            `stock can't be lower than ${holding} until they are paid or released.`,
          row,
        };
      }
    }

    await tx
      .update(catalogItems)
      .set({ optionNames: args.options, updatedAt: args.now })
      .where(eq(catalogItems.id, args.itemId));
    const kept = new Set<string>();
    for (const [position, row] of args.rows.entries()) {
      kept.add(rowKey(row));
      const values = { ...row, position, updatedAt: args.now };
      const before = byKey.get(rowKey(row));
      if (before) await tx.update(productVariants).set(values).where(eq(productVariants.id, before.id));
      else await tx.insert(productVariants).values({ ...values, catalogItemId: args.itemId, createdAt: args.now });
    }
    const gone = existing.filter((r) => !kept.has(rowKey(r)));
    const named = await namedRows(
      tx,
      gone.map((r) => r.id),
    );
    for (const row of gone) {
      if (named.has(row.id)) {
        await tx
          .update(productVariants)
          .set({ enabled: false, updatedAt: args.now })
          .where(eq(productVariants.id, row.id));
      } else {
        await tx.delete(productVariants).where(eq(productVariants.id, row.id));
      }
    }
    return { ok: true, rows: args.rows.length };
  });
}

/** Rows an order line, a hold or a bag names: they stay, so orders keep saying what was bought. */
async function namedRows(tx: Tx, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const ordered = await tx
    .selectDistinct({ id: orderLines.variantId })
    .from(orderLines)
    .where(inArray(orderLines.variantId, ids));
  const held = await tx
    .selectDistinct({ key: stockHolds.stockKey })
    .from(stockHolds)
    .where(
      inArray(
        stockHolds.stockKey,
        ids.map((id) => variantStockKey(id)),
      ),
    );
  // A bag's line is kept and marked "not sold", never silently removed (issue 39), so it names its row too.
  const bagged = await tx
    .selectDistinct({ id: bagLines.variantId })
    .from(bagLines)
    .where(inArray(bagLines.variantId, ids));
  const named = new Set([...ordered, ...bagged].map((r) => r.id).filter((id): id is number => id !== null));
  for (const { key } of held) named.add(Number(key.split(":")[1]));
  return named;
}

/** Units each row has sold in paid orders, for the owner ("M sold 12, L sold 3"). */
export async function soldByRow(db: Pick<Database, "select">, itemId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ id: orderLines.variantId, n: sql<number>`coalesce(sum(${orderLines.quantity}), 0)::int` })
    .from(orderLines)
    .innerJoin(productVariants, eq(productVariants.id, orderLines.variantId))
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(and(eq(productVariants.catalogItemId, itemId), inArray(orders.status, ["paid", "partially_refunded"])))
    .groupBy(orderLines.variantId);
  return new Map(rows.map((r) => [r.id!, Number(r.n)]));
}
