// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";
import { checkRand, type RandRules } from "./money";

/**
 * A form's rand field for its Zod schema: the typed text, trimmed, refused with the message
 * `checkRand` gives (decision 103). The text stays as typed so a refused form shows it again;
 * `parseRandToCents` turns an accepted one into cents. `optional` lets an empty field through.
 */
export function randField(rules: RandRules & { optional?: boolean }) {
  return z.string().check(
    z.trim(),
    z.superRefine((typed, ctx) => {
      if (rules.optional && typed === "") return;
      const checked = checkRand(typed, rules);
      if (!checked.ok) ctx.addIssue({ code: "custom", message: checked.message });
    }),
  );
}

/** The hidden "yes, this price" answer to a tenfold change: the cents confirmed, or "". */
export const confirmedCentsField = z
  .string()
  .check(z.trim(), z.regex(/^(\d{1,12})?$/, "Reload the page and save again."));
