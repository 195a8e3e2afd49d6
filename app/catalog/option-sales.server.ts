/** What each size or colour sold (issue 44): for the dashboard, per product with options, best sellers first. */
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { variantLabel, type ProductOption } from "./product-options";

export const SOLD_BY_OPTION_LIMIT = 5;

export type OptionSales = { product: string; rows: { label: string; sold: number }[] }[];

type SaleRow = {
  item_id: number;
  product: string;
  option_names: ProductOption[];
  value1: string;
  value2: string;
  sold: number;
};

/**
 * Units sold in paid orders since `since` (all time when null), by product row: "Bucket Hat: Size M 12, Size L 3".
 * Only lines of a product's rows are read, through their partial index.
 */
export async function soldByOption(db: Database, since: Date | null): Promise<OptionSales> {
  const result = await db.execute(sql`
    select v.catalog_item_id as item_id, c.name as product, c.option_names, v.value1, v.value2,
           sum(l.quantity)::int as sold
    from order_lines l
    join product_variants v on v.id = l.variant_id
    join catalog_items c on c.id = v.catalog_item_id
    join orders o on o.id = l.order_id
    where l.variant_id is not null and o.status in ('paid', 'partially_refunded')
    ${since ? sql`and o.created_at >= ${since.toISOString()}` : sql``}
    group by v.catalog_item_id, c.name, c.option_names, v.value1, v.value2`);
  const byItem = new Map<number, { product: string; rows: { label: string; sold: number }[]; total: number }>();
  for (const r of (result as unknown as { rows: SaleRow[] }).rows) {
    const entry = byItem.get(r.item_id) ?? { product: r.product, rows: [], total: 0 };
    entry.rows.push({ label: variantLabel(r.option_names, r), sold: Number(r.sold) });
    entry.total += Number(r.sold);
    byItem.set(r.item_id, entry);
  }
  return [...byItem.values()]
    .sort((a, b) => b.total - a.total || a.product.localeCompare(b.product))
    .slice(0, SOLD_BY_OPTION_LIMIT)
    .map(({ product, rows }) => ({
      product,
      rows: rows.sort((a, b) => b.sold - a.sold || a.label.localeCompare(b.label)),
    }));
}
