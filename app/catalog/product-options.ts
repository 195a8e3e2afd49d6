/**
 * A product's options (issue 44): up to two option names with their values in the owner's order, and a row per
 * combination with its own stock, price and photo. Pure, so the admin's grid, the product page, the collection
 * card and the checkout read the same rules.
 */
import { formatRand } from "~/lib/money";

export const MAX_OPTIONS = 2;
export const MAX_OPTION_VALUES = 20;
export const MAX_OPTION_TEXT = 30;

export interface ProductOption {
  name: string;
  values: string[];
}

/** A row as the pages see it: its values, price and how many a visitor can buy now (null: not counted). */
export interface VariantView {
  id: number;
  value1: string;
  value2: string;
  priceCents: number | null;
  image: string | null;
  enabled: boolean;
  available: number | null;
}

/** "S, M, L , xl" -> ["S", "M", "L", "xl"], or why the owner's list cannot be used. */
export function readOptionValues(typed: string): { ok: true; values: string[] } | { ok: false; error: string } {
  const values = typed
    .split(",")
    .map((v) => v.trim().replace(/\s+/g, " "))
    .filter((v) => v !== "");
  if (values.length === 0) return { ok: false, error: "Type at least one value, separated by commas." };
  if (values.length > MAX_OPTION_VALUES) return { ok: false, error: `At most ${MAX_OPTION_VALUES} values.` };
  const long = values.find((v) => v.length > MAX_OPTION_TEXT);
  if (long) return { ok: false, error: `"${long.slice(0, 12)}…" is longer than ${MAX_OPTION_TEXT} characters.` };
  const seen = new Set<string>();
  for (const v of values) {
    const key = v.toLowerCase();
    if (seen.has(key)) return { ok: false, error: `"${v}" is listed twice.` };
    seen.add(key);
  }
  return { ok: true, values };
}

/** Every combination of the options' values, first option outermost, in the order the owner typed them. */
export function combinations(options: ProductOption[]): { value1: string; value2: string }[] {
  const [first, second] = options;
  if (!first) return [];
  return first.values.flatMap((value1) =>
    second ? second.values.map((value2) => ({ value1, value2 })) : [{ value1, value2: "" }],
  );
}

/**
 * A row in words: "Size M, Mustard". A short value (a size letter or number) needs its option's name to be
 * understood; a word such as a colour reads on its own.
 */
export function variantLabel(options: ProductOption[], row: { value1: string; value2: string }): string {
  const word = (name: string | undefined, value: string) =>
    name && (value.length <= 3 || /^\d/.test(value)) ? `${name} ${value}` : value;
  const parts = [word(options[0]?.name, row.value1)];
  if (row.value2) parts.push(word(options[1]?.name, row.value2));
  return parts.join(", ");
}

/** What an order line, a bag line and an email call a row: "Bucket Hat — Size M, Mustard". */
export function variantLineName(itemName: string, options: ProductOption[], row: { value1: string; value2: string }) {
  return `${itemName} — ${variantLabel(options, row)}`;
}

export interface RowsSummary {
  /** The lowest price of the rows on sale: the price the collection sorts by. */
  lowestCents: number | null;
  /** "From R 350.00" when the rows on sale differ in price, else the one price. */
  priceText: string | null;
  soldOut: boolean;
  /** Units left over all rows when every row is counted, for "N LIMITED STOCK!"; null when any row is not counted. */
  limitedStock: number | null;
}

/** The card's and the page's summary of a product's rows: only rows switched on count. */
export function summarizeRows(productPriceCents: number | null, rows: VariantView[]): RowsSummary {
  const onSale = rows.filter((r) => r.enabled);
  const prices = onSale.map((r) => r.priceCents ?? productPriceCents).filter((p): p is number => p !== null);
  const lowestCents = prices.length ? Math.min(...prices) : null;
  const highest = prices.length ? Math.max(...prices) : null;
  const priceText =
    lowestCents === null ? null : highest !== lowestCents ? `From ${formatRand(lowestCents)}` : formatRand(lowestCents);
  const soldOut = onSale.length === 0 || onSale.every((r) => r.available === 0);
  const counted = onSale.every((r) => r.available !== null);
  const left = onSale.reduce((sum, r) => sum + (r.available ?? 0), 0);
  return { lowestCents, priceText, soldOut, limitedStock: counted && left > 0 ? left : null };
}

/** The values of one option that can still be chosen: on sale in at least one row with units left. */
export function choosableValues(rows: VariantView[], option: 1 | 2): Set<string> {
  const open = rows.filter((r) => r.enabled && r.available !== 0);
  return new Set(open.map((r) => (option === 1 ? r.value1 : r.value2)));
}

/** schema.org's properties Google reads as variesBy; other option names are described as additional properties. */
const VARIES_BY: Record<string, string> = {
  size: "size",
  colour: "color",
  color: "color",
  material: "material",
  pattern: "pattern",
};

/** A product group with a variant per row, each with its own offer and availability (Google's product variants). */
export function productGroupJsonLd(input: {
  siteUrl: string;
  path: string;
  groupId: string;
  name: string;
  description: string;
  images: string[];
  priceCents: number | null;
  options: ProductOption[];
  rows: VariantView[];
}) {
  const property = (name: string) => VARIES_BY[name.trim().toLowerCase()];
  const absolute = (src: string) => (src.startsWith("http") ? src : `${input.siteUrl}${src}`);
  return {
    "@context": "https://schema.org",
    "@type": "ProductGroup",
    name: input.name,
    description: input.description,
    url: `${input.siteUrl}${input.path}`,
    productGroupID: input.groupId,
    brand: { "@type": "Brand", name: "Honey Bee Sustainable Fashion" },
    image: input.images.map(absolute),
    variesBy: input.options
      .map((o) => property(o.name))
      .filter(Boolean)
      .map((p) => `https://schema.org/${p}`),
    hasVariant: input.rows
      .filter((r) => r.enabled)
      .map((r) => {
        const values = [r.value1, r.value2];
        const named: Record<string, string> = {};
        const additional: { "@type": "PropertyValue"; name: string; value: string }[] = [];
        input.options.forEach((o, i) => {
          const p = property(o.name);
          if (p) named[p] = values[i];
          else additional.push({ "@type": "PropertyValue", name: o.name, value: values[i] });
        });
        const price = r.priceCents ?? input.priceCents;
        return {
          "@type": "Product",
          sku: `${input.groupId}-${r.id}`,
          inProductGroupWithID: input.groupId,
          name: variantLineName(input.name, input.options, r),
          ...named,
          ...(additional.length > 0 && { additionalProperty: additional }),
          ...((r.image ?? input.images[0]) && { image: absolute((r.image ?? input.images[0])!) }),
          ...(price !== null && {
            offers: {
              "@type": "Offer",
              url: `${input.siteUrl}${input.path}?${choiceQuery(input.options, r)}`,
              price: (price / 100).toFixed(2),
              priceCurrency: "ZAR",
              availability:
                r.available === 0
                  ? "https://schema.org/OutOfStock"
                  : r.available !== null
                    ? "https://schema.org/LimitedAvailability"
                    : "https://schema.org/InStock",
            },
          }),
        };
      }),
  };
}

/** The query that chooses a row on the product page and at checkout: "option1=M&option2=Mustard". */
export function choiceQuery(options: ProductOption[], row: { value1: string; value2: string }): string {
  const query = new URLSearchParams({ option1: row.value1 });
  if (options.length > 1) query.set("option2", row.value2);
  return query.toString();
}
