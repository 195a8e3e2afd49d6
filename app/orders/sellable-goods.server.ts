import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { MAX_OPTION_TEXT, variantLineName } from "~/catalog/product-options";
import { catalogItems, productVariants } from "~/db/schema";
import { heldUnits, unitsAvailable } from "~/stock/availability.server";
import { catalogStockKey, variantStockKey } from "~/stock/keys";
import type { RowChoice, Sellable, SellableLookup } from "./sellable-lookup";

/** Catalog items and the rows of products with sizes or colours, as the checkout and the bag sell them. */

export async function findCatalogItem(db: Database, which: SQL, now: Date, choice: RowChoice): Promise<SellableLookup> {
  const [row] = await db
    .select()
    .from(catalogItems)
    .where(sql`${which} and not ${catalogItems.archived}`)
    .limit(1);
  if (!row) return { ok: false, reason: "We could not find that item." };
  if (row.optionNames.length > 0) return findProductRow(db, row, now, choice);
  return sellGoods(db, now, goodsOfItem(row));
}

export const goodsOfItem = (row: typeof catalogItems.$inferSelect): Goods => ({
  kind: row.kind,
  displayName: row.name,
  priceCents: row.priceCents,
  description: row.description,
  stockQuantity: row.stockQuantity,
  key: catalogStockKey(row.id),
  line: { catalogItemId: row.id },
});

export const goodsOfRow = (
  item: typeof catalogItems.$inferSelect,
  row: typeof productVariants.$inferSelect,
): Goods => ({
  kind: item.kind,
  displayName: variantLineName(item.name, item.optionNames, row),
  priceCents: row.priceCents ?? item.priceCents,
  description: item.description,
  stockQuantity: row.stockQuantity,
  key: variantStockKey(row.id),
  line: { catalogItemId: item.id, variantId: row.id },
});

export const choiceNotSold = (item: typeof catalogItems.$inferSelect): SellableLookup => ({
  ok: false,
  reason: `That choice of ${item.name} is not sold. Please choose again.`,
});

/**
 * The row of a product with sizes or colours that the buyer chose, priced and counted on its own. A missing
 * choice is refused with what to choose, never guessed; a row switched off, or of another product, is refused.
 */
export async function findProductRow(
  db: Database,
  item: typeof catalogItems.$inferSelect,
  now: Date,
  choice: RowChoice,
): Promise<SellableLookup> {
  const options = item.optionNames;
  const missing = options.filter((_, i) => !(choice.variantId || (i === 0 ? choice.option1 : choice.option2)?.trim()));
  if (missing.length > 0) {
    return { ok: false, reason: `Please choose a ${missing.map((o) => o.name).join(" and ")} for ${item.name}.` };
  }
  const typed = [choice.option1, choice.option2].map((v) => v?.trim() ?? "");
  // A NUL cannot be compared by PostgreSQL, and no value is this long: such a choice matches nothing.
  if (typed.some((v) => v.length > MAX_OPTION_TEXT || v.includes("\u0000"))) {
    return { ok: false, reason: `That choice of ${item.name} is not sold. Please choose again.` };
  }
  const [row] = await db
    .select()
    .from(productVariants)
    .where(
      choice.variantId
        ? and(eq(productVariants.catalogItemId, item.id), eq(productVariants.id, choice.variantId))
        : and(
            eq(productVariants.catalogItemId, item.id),
            eq(productVariants.value1, typed[0]),
            eq(productVariants.value2, options.length > 1 ? typed[1] : ""),
          ),
    )
    .limit(1);
  if (!row || !row.enabled) return choiceNotSold(item);
  return sellGoods(db, now, goodsOfRow(item, row));
}

/**
 * A catalog item, or one row of it, priced and counted: refused when priced on request or sold out. Only physical
 * products are shipped; wardrobe solutions and consultations are services.
 */
async function sellGoods(
  db: Database,
  now: Date,
  goods: {
    kind: (typeof catalogItems.$inferSelect)["kind"];
    displayName: string;
    priceCents: number | null;
    description: string;
    stockQuantity: number | null;
    key: string;
    line: Sellable["line"];
  },
): Promise<SellableLookup> {
  const counted = goods.priceCents !== null && goods.stockQuantity !== null;
  const held = counted ? await heldUnits(db, [goods.key], now) : new Map<string, number>();
  return goodsLookup(goods, held);
}

export type Goods = Parameters<typeof sellGoods>[2];

/** `sellGoods` once the units held of its key are known (a bag reads them for every line at once). */
export function goodsLookup(goods: Goods, held: Map<string, number>): SellableLookup {
  const { displayName, key, stockQuantity } = goods;
  if (goods.priceCents === null) {
    return { ok: false, reason: `${displayName} is priced on request. Please contact us for a quote.` };
  }
  const soldOutReason = `${displayName} is sold out.`;
  let available: number | null = null;
  if (stockQuantity !== null) {
    available = unitsAvailable(stockQuantity, held.get(key) ?? 0);
    if (available === 0) return { ok: false, reason: soldOutReason };
  }
  return {
    ok: true,
    item: {
      orderType: goods.kind === "product" ? "product" : "service",
      displayName,
      amountCents: goods.priceCents,
      description: goods.description,
      stock: stockQuantity === null ? null : { key, limit: stockQuantity, soldOutReason },
      available,
      line: goods.line,
    },
  };
}
