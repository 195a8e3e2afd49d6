/**
 * A discount code typed at checkout (issue 40): found, checked against its dates, its uses and the
 * buyer's email, and turned into the code the pricing rule takes. Refusals are in the buyer's words.
 * With `lock`, the code's row is locked first, inside the transaction that then stores the order and
 * its hold: two checkouts racing for the last use count one after the other, so exactly one gets it.
 */
import { sql } from "drizzle-orm";
import { saDay } from "~/analytics/days";
import type { Database, Tx } from "~/db/client.server";
import { discountCodes } from "~/db/schema";
import { dayMonthYear } from "~/lib/dates-in-words";
import { formatRand } from "~/lib/money";
import { CODE_PATTERN } from "./discount-code-schema";
import { codeUsesNow } from "./discount-code-uses.server";
import type { DiscountCode, PricedOrder } from "./price-lines";

/** A refused code, thrown inside the order's transaction so nothing is stored. */
export class DiscountCodeRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DiscountCodeRefused";
  }
}

/** What the buyer typed, as the form field keeps it: trimmed, and no longer than any code can be. */
export const typedCode = (value: unknown): string => (typeof value === "string" ? value.trim().slice(0, 40) : "");

export const CARD_SUBSCRIPTION_CODE_REASON =
  "Discount codes cannot be used on a card subscription: its first payment and its renewals are one amount.";

export type CheckedCode = { ok: true; id: number; code: DiscountCode } | { ok: false; message: string };

/**
 * The typed code, valid now for this buyer, or why not. Without an email (the page, before the buyer has
 * given one) the per-customer limit is checked when the order is sent.
 */
export async function checkCode(
  db: Database | Tx,
  typed: string,
  at: { email: string | null; now: Date; holdMinutes: number; lock?: boolean },
): Promise<CheckedCode> {
  const upper = typed.toUpperCase();
  const unknown = { ok: false as const, message: `We don't know the code ${typed}. Please check its spelling.` };
  if (!CODE_PATTERN.test(typed) || typed.length > 32) return unknown;
  const query = db
    .select()
    .from(discountCodes)
    .where(sql`upper(${discountCodes.code}) = ${upper}`)
    .limit(1);
  const [row] = at.lock ? await query.for("update") : await query;
  if (!row) return unknown;
  if (!row.active) return { ok: false, message: `The code ${row.code} is not running at the moment.` };
  const today = saDay(at.now);
  if (row.validFrom && today < row.validFrom)
    return { ok: false, message: `The code ${row.code} starts on ${dayMonthYear(row.validFrom)}.` };
  if (row.validUntil && today > row.validUntil)
    return { ok: false, message: `The code ${row.code} ended on ${dayMonthYear(row.validUntil)}.` };
  if (row.totalUses !== null || (row.usesPerEmail !== null && at.email)) {
    const uses = await codeUsesNow(db, row.id, at.email ?? "", at.now, at.holdMinutes);
    if (row.totalUses !== null && uses.total >= row.totalUses)
      return { ok: false, message: `The code ${row.code} has been used up.` };
    if (row.usesPerEmail !== null && at.email && uses.byEmail >= row.usesPerEmail)
      return {
        ok: false,
        message:
          row.usesPerEmail === 1
            ? `The code ${row.code} has already been used with this email address.`
            : `The code ${row.code} has already been used ${row.usesPerEmail} times with this email address.`,
      };
  }
  return {
    ok: true,
    id: row.id,
    code: {
      code: row.code,
      kind: row.kind,
      amount: row.amount,
      scope: row.scope === "items" ? { items: row.items } : row.scope,
      minimumSpendCents: row.minimumSpendCents,
    },
  };
}

/** Why a valid code gives nothing to this order, or null when it applies (or a member's price is better). */
export function codeOutcomeProblem(priced: Pick<PricedOrder, "code">, code: DiscountCode): string | null {
  if (priced.code?.outcome === "nothing-applies")
    return `The code ${code.code} does not apply to anything in this order.`;
  if (priced.code?.outcome === "below-minimum")
    return `The code ${code.code} needs a spend of ${formatRand(code.minimumSpendCents)} or more on what it applies to.`;
  return null;
}

/** The code typed on a checkout page, checked without its per-customer limit (the email comes with the order). */
export async function codeForPage(
  db: Database,
  typed: string,
  now: Date,
  holdMinutes: number,
): Promise<{ typed: string; code: DiscountCode | null; error: string | null }> {
  if (!typed) return { typed, code: null, error: null };
  const checked = await checkCode(db, typed, { email: null, now, holdMinutes });
  return checked.ok ? { typed, code: checked.code, error: null } : { typed, code: null, error: checked.message };
}

/** What the page says of a code once the order is priced: why it gives nothing, or that a member price is better. */
export function pageCodeWords(
  priced: Pick<PricedOrder, "code">,
  code: DiscountCode,
): { error: string | null; note: string | null } {
  const problem = codeOutcomeProblem(priced, code);
  if (problem) return { error: problem, note: null };
  if (priced.code?.outcome === "not-better")
    return { error: null, note: `Your member price is better than the code ${code.code}, so it is kept.` };
  return { error: null, note: `The code ${code.code} is applied.` };
}
