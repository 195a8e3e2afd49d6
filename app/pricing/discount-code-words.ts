/** A discount code in the owner's words, for the list and the activity log. */
import { dayMonthYear } from "~/lib/dates-in-words";
import { formatRand } from "~/lib/money";
import { CODE_SCOPES } from "./discount-code-schema";

export interface CodeTerms {
  kind: "percent" | "fixed";
  amount: number;
  scope: string;
  items: string[];
  validFrom: string | null;
  validUntil: string | null;
  minimumSpendCents: number;
  usesPerEmail: number | null;
}

/** "20% off" or "R 50.00 off", with the minimum spend when there is one. */
export function codeGives(code: CodeTerms): string {
  const off = code.kind === "percent" ? `${code.amount}% off` : `${formatRand(code.amount)} off`;
  return code.minimumSpendCents > 0 ? `${off} a spend of ${formatRand(code.minimumSpendCents)} or more` : off;
}

/** "Products", or the chosen items by name ("Chosen items: Candy Earrings, Sip & Style"). */
export function codeAppliesTo(code: CodeTerms, names: Map<string, string>): string {
  if (code.scope !== "items") return CODE_SCOPES.find((s) => s.value === code.scope)?.label ?? code.scope;
  const chosen = code.items.map((key) => names.get(key) ?? "an item no longer sold");
  return `Chosen items: ${chosen.join(", ")}`;
}

/** "Always", "From 1 December 2026", "Until 31 December 2026" or "1 December 2026 to 31 December 2026". */
export function codeValidity(code: Pick<CodeTerms, "validFrom" | "validUntil">): string {
  const { validFrom: from, validUntil: until } = code;
  if (from && until)
    return from === until ? `On ${dayMonthYear(from)} only` : `${dayMonthYear(from)} to ${dayMonthYear(until)}`;
  if (from) return `From ${dayMonthYear(from)}`;
  if (until) return `Until ${dayMonthYear(until)}`;
  return "Always";
}

/** "3 of 5", or "3 (no limit)". */
export function codeUses(used: number, total: number | null): string {
  return total === null ? `${used} (no limit)` : `${used} of ${total}`;
}

/** What a checkout page knows of the code typed: as typed, why it is refused, or what it did. */
export interface CodeView {
  typed: string;
  error: string | null;
  note: string | null;
}
