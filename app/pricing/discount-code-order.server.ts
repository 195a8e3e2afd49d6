/**
 * A checkout's order priced with the code the buyer typed (issue 40, decision 135), inside the
 * transaction that stores the order and its hold: the code's row is locked and its uses counted first,
 * so the last use goes to exactly one checkout; a code refused, or giving this order nothing, throws
 * and nothing is stored.
 */
import type { Tx } from "~/db/client.server";
import { formatRand } from "~/lib/money";
import { checkCode, codeOutcomeProblem, DiscountCodeRefused } from "./discount-code-checkout.server";
import type { DiscountCode, PricedOrder } from "./price-lines";

/** Card payments start at R 2.00 (the provider refuses less). */
const MIN_CHARGE_CENTS = 200;

export async function priceWithCode(
  tx: Tx,
  typed: string | undefined,
  email: string,
  at: { now: Date; holdMinutes: number },
  price: (code: DiscountCode | null) => Promise<PricedOrder>,
): Promise<{ price: PricedOrder; codeId: number | null }> {
  if (!typed) return { price: await price(null), codeId: null };
  const checked = await checkCode(tx, typed, { email, now: at.now, holdMinutes: at.holdMinutes, lock: true });
  if (!checked.ok) throw new DiscountCodeRefused(checked.message);
  const priced = await price(checked.code);
  const problem = codeOutcomeProblem(priced, checked.code);
  if (problem) throw new DiscountCodeRefused(problem);
  // A member's price that beats the code on every line: the order does not take one of its uses.
  const applied = priced.code?.outcome === "applied";
  if (applied && priced.totalCents > 0 && priced.totalCents < MIN_CHARGE_CENTS)
    throw new DiscountCodeRefused(
      `With the code ${checked.code.code} this order comes to ${formatRand(priced.totalCents)}, and card ` +
        `payments start at R 2.00. Please add something to it.`,
    );
  return { price: priced, codeId: applied ? checked.id : null };
}
