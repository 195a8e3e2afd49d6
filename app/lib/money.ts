/** The one formatter for every price shown: 45000 -> "R 450.00", 375000 -> "R 3,750.00". */
export function formatRand(cents: number): string {
  const negative = cents < 0;
  const abs = Math.abs(Math.round(cents));
  const rands = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const c = (abs % 100).toString().padStart(2, "0");
  return `${negative ? "-" : ""}R ${rands}.${c}`;
}

/** Short form used in button labels and query strings: 25000 -> "R250", 375000 -> "R3750". */
export function shortRand(cents: number): string {
  const rands = cents / 100;
  return `R${Number.isInteger(rands) ? rands : rands.toFixed(2)}`;
}
