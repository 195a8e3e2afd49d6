// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";
import { parseRandToCents } from "~/lib/money";
import { randField } from "~/lib/rand-field";

export const CODE_KINDS = [
  { value: "percent", label: "A percentage off" },
  { value: "fixed", label: "An amount in rand off" },
] as const;

export const CODE_SCOPES = [
  { value: "everything", label: "Everything" },
  { value: "products", label: "Products" },
  { value: "events", label: "Events and workshops" },
  { value: "first-membership-month", label: "Memberships' first month" },
  { value: "items", label: "Chosen items" },
] as const;

export type CodeScopeValue = (typeof CODE_SCOPES)[number]["value"];

/** The rand fields' rules, for the schema and the form's preview alike. */
export const FIXED_OFF_RULES = { label: "Rand off", minCents: 100, maxCents: 10_000_000, optional: true };
export const MINIMUM_SPEND_RULES = { label: "Minimum spend", minCents: 0, maxCents: 10_000_000, optional: true };

export const CODE_PATTERN = /^[A-Za-z0-9]+$/;

/**
 * A South African calendar day as typed: "2026-12-01" (what a date field posts), "2026/12/01" or
 * "01/12/2026" (day first, as South Africans write it) -> "2026-12-01", or null when it is not a real day.
 */
export function readSouthAfricanDay(typed: string): string | null {
  const text = typed.trim();
  const iso = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(text);
  const dayFirst = /^(\d{1,2})[-/](\d{1,2})[-/](\d{4})$/.exec(text);
  const parts = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : dayFirst
      ? [Number(dayFirst[3]), Number(dayFirst[2]), Number(dayFirst[1])]
      : null;
  if (!parts) return null;
  const [year, month, day] = parts as [number, number, number];
  if (year < 2000 || year > 2100) return null;
  const at = new Date(Date.UTC(year, month - 1, day));
  if (at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return null;
  return at.toISOString().slice(0, 10);
}

const dayField = (label: string) =>
  z.string().check(
    z.trim(),
    z.refine((v) => v === "" || readSouthAfricanDay(v) !== null, `${label} must be a date, e.g. 2026-12-01.`),
  );

const optionalCount = (label: string, max: number) =>
  z.string().check(
    z.trim(),
    z.refine(
      (v) => v === "" || (/^\d{1,7}$/.test(v) && Number(v) >= 1 && Number(v) <= max),
      `${label} must be a whole number from 1 to ${max}, or empty for no limit.`,
    ),
  );

/** The owner's discount code form: one schema for adding and editing a code. */
export const discountCodeSchema = z
  .object({
    code: z.string().check(
      z.trim(),
      z.minLength(1, "Code is required, e.g. LAUNCH20."),
      z.maxLength(32, "Code must be at most 32 characters."),
      z.refine((v) => v === "" || CODE_PATTERN.test(v), "Code may use only letters and digits, e.g. LAUNCH20."),
    ),
    kind: z.enum(["percent", "fixed"], "Choose a percentage or an amount in rand off."),
    percent: z.string().check(z.trim()),
    fixed: randField(FIXED_OFF_RULES),
    scope: z.enum(
      ["everything", "products", "events", "first-membership-month", "items"],
      "Choose what the code applies to.",
    ),
    items: z
      .array(z.string().check(z.regex(/^(catalog|event):[a-z0-9-]{1,80}$/, "Choose items from the list.")))
      .check(z.maxLength(200, "Choose at most 200 items.")),
    validFrom: dayField("Valid from"),
    validUntil: dayField("Valid until"),
    totalUses: optionalCount("Total uses", 1_000_000),
    usesPerEmail: optionalCount("Uses per customer", 1000),
    minimumSpend: randField(MINIMUM_SPEND_RULES),
    active: z.boolean(),
  })
  .check(
    z.superRefine((c, ctx) => {
      if (c.kind === "percent" && !(/^\d{1,3}$/.test(c.percent) && Number(c.percent) >= 1 && Number(c.percent) <= 100))
        ctx.addIssue({
          code: "custom",
          message: "Percent off must be a whole number from 1 to 100.",
          path: ["percent"],
        });
      if (c.kind === "fixed" && c.fixed === "")
        ctx.addIssue({
          code: "custom",
          message: "Rand off is required: an amount, e.g. 50 or 50,00.",
          path: ["fixed"],
        });
      if (c.scope === "items" && c.items.length === 0)
        ctx.addIssue({ code: "custom", message: "Choose at least one item the code applies to.", path: ["items"] });
      const from = readSouthAfricanDay(c.validFrom);
      const until = readSouthAfricanDay(c.validUntil);
      if (from && until && until < from)
        ctx.addIssue({ code: "custom", message: "Valid until must be on or after Valid from.", path: ["validUntil"] });
    }),
  );

export type DiscountCodeInput = z.infer<typeof discountCodeSchema>;

export const CODE_TEXT_FIELDS = [
  "code",
  "kind",
  "percent",
  "fixed",
  "scope",
  "validFrom",
  "validUntil",
  "totalUses",
  "usesPerEmail",
  "minimumSpend",
] as const;

/** What the form's fields become in the codes row. */
export function discountCodeRowValues(input: DiscountCodeInput) {
  return {
    code: input.code.toUpperCase(),
    kind: input.kind,
    amount: input.kind === "percent" ? Number(input.percent) : parseRandToCents(input.fixed)!,
    scope: input.scope,
    items: input.scope === "items" ? [...new Set(input.items)] : [],
    validFrom: readSouthAfricanDay(input.validFrom),
    validUntil: readSouthAfricanDay(input.validUntil),
    totalUses: input.totalUses === "" ? null : Number(input.totalUses),
    usesPerEmail: input.usesPerEmail === "" ? null : Number(input.usesPerEmail),
    minimumSpendCents: input.minimumSpend === "" ? 0 : parseRandToCents(input.minimumSpend)!,
    active: input.active,
  };
}
