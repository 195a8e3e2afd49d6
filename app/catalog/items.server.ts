import { and, asc, desc, eq } from "drizzle-orm";
import { heldUnits, unitsAvailable } from "~/stock/availability.server";
import { catalogStockKey } from "~/stock/keys";
import type { Database } from "~/db/client.server";
import { catalogItems, catalogSlugRedirects } from "~/db/schema";
import { formatRand } from "~/lib/money";
import { summarizeRows } from "./product-options";
import { listVariants } from "./product-variants.server";
import { DEFAULT_COLLECTION_SORT, isNewAt, newSince, type CollectionSort } from "./collection-options";
import { isPlausibleSlug } from "./slug";

export type CatalogItem = typeof catalogItems.$inferSelect;

/** One item by slug, hidden ones included (the test product is reachable only by its URL). */
export async function findItemBySlug(db: Database, slug: string): Promise<CatalogItem | null> {
  if (!isPlausibleSlug(slug)) return null;
  const [row] = await db
    .select()
    .from(catalogItems)
    .where(and(eq(catalogItems.slug, slug), eq(catalogItems.archived, false)))
    .limit(1);
  return row ?? null;
}

export interface CatalogCard {
  slug: string;
  name: string;
  priceCents: number | null;
  priceText: string;
  image: string | null;
  imageAlt: string;
  /** Units a visitor can buy now; null means unlimited. */
  available: number | null;
  soldOut: boolean;
  /** Shown as "{n} LIMITED STOCK!" when the item has a stock limit and units left. */
  limitedStock: number | null;
  /** The owner marked it "New" less than 30 days ago (by the app's clock). */
  isNew: boolean;
}

/** Highest price first; items priced by text ("Contact Us") last, then by the owner's sort order. */
export function byPriceDescending(a: CatalogItem, b: CatalogItem): number {
  if (a.priceCents === null && b.priceCents === null) return a.sortOrder - b.sortOrder;
  if (a.priceCents === null) return 1;
  if (b.priceCents === null) return -1;
  return b.priceCents - a.priceCents || a.sortOrder - b.sortOrder;
}

/** Lowest price first; items priced by text ("Contact Us") still last, then by the owner's sort order. */
export function byPriceAscending(a: CatalogItem, b: CatalogItem): number {
  if (a.priceCents === null || b.priceCents === null) return byPriceDescending(a, b);
  return a.priceCents - b.priceCents || a.sortOrder - b.sortOrder;
}

/** Newest to the shop first (marked "New" or added), then the owner's sort order. */
export function byNewest(a: CatalogItem, b: CatalogItem): number {
  return newSince(b) - newSince(a) || a.sortOrder - b.sortOrder || b.id - a.id;
}

const SORTS: Record<CollectionSort, (a: CatalogItem, b: CatalogItem) => number> = {
  "price-desc": byPriceDescending,
  "price-asc": byPriceAscending,
  newest: byNewest,
};

/** Visible products and wardrobe solutions for /styled-collections, with live stock after active holds. */
export async function listCollectionCards(
  db: Database,
  now: Date,
  sort: CollectionSort = DEFAULT_COLLECTION_SORT,
): Promise<CatalogCard[]> {
  const rows = (
    await db
      .select()
      .from(catalogItems)
      .where(and(eq(catalogItems.visible, true), eq(catalogItems.archived, false)))
  ).filter((r) => r.kind === "product" || r.kind === "solution");
  const held = await heldUnits(
    db,
    rows.filter((r) => r.stockQuantity !== null && r.optionNames.length === 0).map((r) => catalogStockKey(r.id)),
    now,
  );
  // A product with sizes or colours is summed over its rows, and sorts by its lowest price (issue 44).
  const variants = await listVariants(
    db,
    rows.filter((r) => r.optionNames.length > 0).map((r) => r.id),
    now,
  );
  const summaryOf = (r: CatalogItem) =>
    r.optionNames.length > 0 ? summarizeRows(r.priceCents, variants.get(r.id) ?? []) : null;
  const priced = rows.map((r) => {
    const summary = summaryOf(r);
    return { row: summary ? { ...r, priceCents: summary.lowestCents } : r, summary };
  });
  const order = SORTS[sort];
  return priced
    .sort((a, b) => order(a.row, b.row))
    .map(({ row: r, summary }) => {
      const available = summary
        ? summary.soldOut
          ? 0
          : summary.limitedStock
        : unitsAvailable(r.stockQuantity, held.get(catalogStockKey(r.id)) ?? 0);
      return {
        slug: r.slug,
        name: r.name,
        priceCents: r.priceCents,
        priceText: summary?.priceText ?? (r.priceCents === null ? r.priceText : formatRand(r.priceCents)),
        image: r.images[0] ?? null,
        imageAlt: r.imageAlts[0] || r.name,
        available,
        soldOut: available === 0,
        limitedStock: available !== null && available > 0 ? available : null,
        isNew: isNewAt(r.newUntil, now),
      };
    });
}

/** The consultation services (kind=service) in the owner's order. */
export async function listServiceCards(db: Database): Promise<CatalogCard[]> {
  const rows = await db
    .select()
    .from(catalogItems)
    .where(and(eq(catalogItems.kind, "service"), eq(catalogItems.visible, true), eq(catalogItems.archived, false)))
    .orderBy(asc(catalogItems.sortOrder));
  return rows.map((r) => ({
    slug: r.slug,
    name: r.name,
    priceCents: r.priceCents,
    priceText: r.priceCents === null ? r.priceText : formatRand(r.priceCents),
    image: r.images[0] ?? null,
    imageAlt: r.imageAlts[0] || r.name,
    available: null,
    soldOut: false,
    limitedStock: null,
    isNew: false,
  }));
}

/** The current slug of a product that used to live at `oldSlug`, for a permanent redirect. */
export async function currentSlugFor(db: Database, oldSlug: string): Promise<string | null> {
  if (!isPlausibleSlug(oldSlug)) return null;
  const [row] = await db
    .select({ slug: catalogItems.slug })
    .from(catalogSlugRedirects)
    .innerJoin(catalogItems, eq(catalogItems.id, catalogSlugRedirects.itemId))
    .where(and(eq(catalogSlugRedirects.oldSlug, oldSlug), eq(catalogItems.archived, false)))
    .orderBy(desc(catalogSlugRedirects.createdAt))
    .limit(1);
  return row?.slug ?? null;
}
