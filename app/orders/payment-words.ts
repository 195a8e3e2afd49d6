/** The payment provider as the owner knows it: "Yoco", or the built-in simulator, said truthfully. */
export function providerName(provider: string): string {
  if (provider === "payfast") return "PayFast";
  // An order a member's perks made free (issue 40) is confirmed without any provider.
  if (provider === "free") return "a member perk (nothing to pay)";
  return provider === "yoco" ? "Yoco" : provider === "simulator" ? "the payment simulator" : provider;
}

/**
 * "Paid by card (Yoco)" / "Paid by card (simulator: no money moved)". A free order says what made it free:
 * a discount code when the order used one (decision 135), a member's perk otherwise.
 */
export function paidByWords(provider: string, usedDiscountCode = false): string {
  if (provider === "free") return usedDiscountCode ? "Free (discount code)" : "Free (member perk)";
  return provider === "simulator"
    ? "Paid by card (simulator: no money moved)"
    : `Paid by card (${providerName(provider)})`;
}

/**
 * Order history written before issue 36 named the provider's event ("Paid (webhook payment.succeeded)");
 * it is shown in the words new entries use.
 */
export function historyWords(summary: string, provider: string): string {
  const by = providerName(provider);
  const paid = /^Paid \((?:webhook [\w.]+|asking the payment provider)\)(.*)$/.exec(summary);
  if (paid) return `Payment confirmed by ${by}${paid[1]}`;
  const again = /^Payment confirmed again by (?:webhook [\w.]+|asking the payment provider): nothing changed$/.exec(
    summary,
  );
  if (again) return `Payment confirmed again by ${by}: nothing changed`;
  return summary;
}
