// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";
import { parseRandToCents, shortRand } from "~/lib/money";
import { confirmedCentsField, randField } from "~/lib/rand-field";
import { isCleanText, isOneLine } from "~/lib/storable-text";

/** A tier's monthly price rules, for the schema and the form's preview alike. */
export const TIER_PRICE_RULES = { label: "Price", minCents: 100, maxCents: 10_000_000, optional: true };
const MAX_BENEFITS = 20;

const wholePercent = (label: string) =>
  z.string().check(
    z.trim(),
    z.refine((v) => /^\d{1,3}$/.test(v) && Number(v) <= 100, `${label} must be a whole number from 0 to 100.`),
  );

const benefitLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/** One membership tier's form in /admin/memberships. */
export const tierSchema = z
  .object({
    slug: z.string().check(z.regex(/^[a-z0-9-]{1,80}$/, "This membership plan could not be found.")),
    name: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, "Name is required."),
        z.maxLength(80, "Name must be at most 80 characters."),
        z.refine(isOneLine, "Name must be one line of text."),
      ),
    price: randField(TIER_PRICE_RULES),
    /** The cents of a tenfold price change the owner confirmed by saving again. */
    confirmPrice: confirmedCentsField,
    priceText: z
      .string()
      .check(
        z.trim(),
        z.maxLength(60, "Price on request text must be at most 60 characters."),
        z.refine(isOneLine, "Price on request text must be one line of text."),
      ),
    description: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, "Description is required."),
        z.maxLength(1000, "Description must be at most 1000 characters."),
        z.refine(isCleanText, "Description contains a control character: please retype it."),
      ),
    benefits: z.string().check(
      z.trim(),
      z.refine(isCleanText, "Benefits contain a control character: please retype them."),
      z.refine((v) => benefitLines(v).length >= 1, "List at least one benefit, one per line."),
      z.refine((v) => benefitLines(v).length <= MAX_BENEFITS, `List at most ${MAX_BENEFITS} benefits.`),
      z.refine(
        (v) => benefitLines(v).every((line) => line.length <= 200),
        "Each benefit must be at most 200 characters.",
      ),
    ),
    visible: z.boolean(),
    sortOrder: z.string().check(
      z.trim(),
      z.refine(
        (v) => /^-?\d{1,5}$/.test(v) && Math.abs(Number(v)) <= 10_000,
        "Sort order must be a whole number from -10000 to 10000.",
      ),
    ),
    percentOffEvents: wholePercent("Percent off workshops and events"),
    freeTicketsPerMonth: z.string().check(
      z.trim(),
      z.refine(
        (v) => /^\d{1,2}$/.test(v) && Number(v) <= 31,
        "Free tickets per month must be a whole number from 0 to 31.",
      ),
    ),
    /** The events the free tickets are for; none ticked means any event. Checked against the events on saving. */
    freeTicketEvents: z
      .array(z.string().check(z.regex(/^[a-z0-9-]{1,100}$/, "Choose events from the list.")))
      .check(z.maxLength(50, "Choose events from the list.")),
    allEventsFree: z.boolean(),
    percentOffProducts: wholePercent("Percent off products"),
  })
  .check(
    z.refine((t) => t.price !== "" || t.priceText !== "", {
      message: "Enter a price, or a Price on request text such as Contact Us.",
      path: ["price"],
    }),
  );

export type TierInput = z.infer<typeof tierSchema>;

export const TIER_TEXT_FIELDS = [
  "slug",
  "name",
  "price",
  "confirmPrice",
  "priceText",
  "description",
  "benefits",
  "sortOrder",
  "percentOffEvents",
  "freeTicketsPerMonth",
  "percentOffProducts",
] as const;

export const TIER_CHECKBOX_FIELDS = ["visible", "allEventsFree"] as const;

/** What the form's fields become in the tier's row. A priced tier shows its short price ("R150"). */
export function tierRowValues(input: TierInput) {
  const priceCents = input.price === "" ? null : parseRandToCents(input.price);
  return {
    name: input.name,
    priceCents,
    priceText: priceCents === null ? input.priceText : shortRand(priceCents),
    description: input.description,
    features: benefitLines(input.benefits),
    visible: input.visible,
    sortOrder: Number(input.sortOrder),
    perkPercentOffEvents: Number(input.percentOffEvents),
    perkFreeTicketsPerMonth: Number(input.freeTicketsPerMonth),
    perkFreeTicketEvents: input.freeTicketEvents.length ? [...new Set(input.freeTicketEvents)] : ("any" as const),
    perkAllEventsFree: input.allEventsFree,
    perkPercentOffProducts: Number(input.percentOffProducts),
  };
}
