// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";
import { formatRand, parseRandToCents } from "~/lib/money";
import { confirmedCentsField, randField } from "~/lib/rand-field";
import { isCleanText, isOneLine } from "~/lib/storable-text";
import { photoAltSchema } from "~/media/photo-schema";

export const PRODUCT_KINDS = [
  { value: "product", label: "Styled product" },
  { value: "solution", label: "Wardrobe solution" },
  { value: "service", label: "Consultation service" },
] as const;

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The price field's rules, for the schema and the form's preview alike. */
export const PRODUCT_PRICE_RULES = { label: "Price", minCents: 100, maxCents: 100_000_000, optional: true };

/** "Candy Earrings!" -> "candy-earrings" */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/g, "");
}

const text = (label: string, max: number, oneLine: boolean) =>
  z.string().check(
    z.trim(),
    z.minLength(1, `${label} is required`),
    z.maxLength(max, `${label} must be at most ${max} characters.`),
    // PostgreSQL cannot store a NUL; no one types control characters on purpose.
    z.refine(
      oneLine ? isOneLine : isCleanText,
      oneLine ? `${label} must be one line of text.` : `${label} contains characters that cannot be stored.`,
    ),
  );

const optionalInt = (label: string, min: number, max: number) =>
  z.string().check(
    z.trim(),
    z.refine(
      (v) => v === "" || (/^-?\d+$/.test(v) && Number(v) >= min && Number(v) <= max),
      `${label} must be a whole number from ${min} to ${max}.`,
    ),
  );

/** The product form: the admin's one schema for creating and editing a product or service. */
export const productSchema = z
  .object({
    name: text("Name", 120, true),
    slug: z.string().check(
      z.trim(),
      z.maxLength(80, "Slug must be at most 80 characters."),
      z.refine(
        (v) => v === "" || SLUG_PATTERN.test(v),
        "Slug may use lowercase letters, digits and single hyphens (e.g. candy-earrings).",
      ),
    ),
    kind: z.enum(["product", "solution", "service"], "Choose a kind"),
    price: randField(PRODUCT_PRICE_RULES),
    /** The cents of a tenfold price change the owner confirmed by saving again. */
    confirmPrice: confirmedCentsField,
    priceText: z
      .string()
      .check(
        z.trim(),
        z.maxLength(60, "Price on request text must be at most 60 characters."),
        z.refine(isOneLine, "Price on request must be one line of text."),
      ),
    description: text("Description", 5000, false),
    stock: optionalInt("Stock", 0, 100_000),
    visible: z.boolean(),
    /** "New" ticked: the card shows the badge for 30 days (see collection-options). */
    markNew: z.boolean(),
    sortOrder: optionalInt("Sort order", -10_000, 10_000),
    photos: z.array(photoAltSchema).check(z.maxLength(12, "A product can have at most 12 photos.")),
  })
  .check(
    z.refine((p) => p.price !== "" || p.priceText !== "", {
      message: "Enter a price, or a Price on request text such as Contact Us.",
      path: ["price"],
    }),
  );

export type ProductInput = z.infer<typeof productSchema>;

/** What the form's fields become in the catalog row. */
export function productRowValues(input: ProductInput) {
  const priceCents = input.price === "" ? null : parseRandToCents(input.price);
  return {
    name: input.name,
    slug: input.slug || slugify(input.name),
    kind: input.kind,
    priceCents,
    priceText: priceCents === null ? input.priceText : formatRand(priceCents),
    description: input.description,
    stockQuantity: input.stock === "" ? null : Number(input.stock),
    visible: input.visible,
    sortOrder: input.sortOrder === "" ? 0 : Number(input.sortOrder),
    images: input.photos.map((p) => p.src),
    imageAlts: input.photos.map((p) => p.alt),
  };
}

export const PRODUCT_TEXT_FIELDS = [
  "name",
  "slug",
  "kind",
  "price",
  "confirmPrice",
  "priceText",
  "description",
  "stock",
  "sortOrder",
] as const;
