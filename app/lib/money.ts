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

/** Why a typed amount was refused; each has its own sentence in `randProblemMessage`. */
export type RandProblem = "empty" | "negative" | "malformed" | "grouping" | "decimals" | "ambiguous" | "large";

export type RandReading = { ok: true; cents: number } | { ok: false; problem: RandProblem };

// Phones paste a no-break space (U+00A0) or a narrow one (U+202F) between thousands; some keyboards a thin space.
const GROUP_SPACES = /[ \u00a0\u202f\u2009]/g;
const MINUS = /^[-\u2212\u2013\u2012]/;
/** More rand digits than any price could need; also keeps the cents exact as a JavaScript number. */
const MAX_RAND_DIGITS = 12;

/**
 * An amount in rand as a South African types it -> cents, or why it is refused (decision 103).
 * "650", "650.00", "650,00", "R 650,50", "1 500,50", "1,500.50", "1.500,50" and "1,500" are read;
 * "6,5,0", "1.5.0", "-5", "1e3" and three or more decimals are refused. A comma before exactly three
 * digits groups thousands (R1,500 is how prices are written here); a single dot before three digits
 * is refused, since "1.500" is as likely R 1.50 mistyped as R 1,500.00.
 */
export function readRand(typed: string): RandReading {
  let text = typed.trim();
  if (text === "") return { ok: false, problem: "empty" };
  if (MINUS.test(text)) return { ok: false, problem: "negative" };
  text = text.replace(/^R\s*/i, "");
  if (MINUS.test(text)) return { ok: false, problem: "negative" };
  text = text.replace(GROUP_SPACES, " ");
  if (!/^\d[\d ,.]*$/.test(text)) return { ok: false, problem: "malformed" };
  if (/[ ,.]$/.test(text) || /[ ,.]{2}/.test(text)) return { ok: false, problem: "grouping" };

  const separators = text.match(/[ ,.]/g) ?? [];
  const digitRuns = text.split(/[ ,.]/);
  const kinds = new Set(separators);
  const last = separators[separators.length - 1];
  let decimal: string | null = null;
  let thousands: string | null = null;
  if (kinds.size === 3) return { ok: false, problem: "grouping" };
  if (kinds.size === 2) {
    // The separator written last holds the cents; the other groups the thousands ("1,500.50", "1 500,50").
    if (last === " ") return { ok: false, problem: "grouping" };
    decimal = last!;
    thousands = [...kinds].find((k) => k !== decimal)!;
    if (separators.filter((s) => s === decimal).length > 1) return { ok: false, problem: "grouping" };
  } else if (kinds.size === 1) {
    const only = last!;
    if (only === " ") thousands = " ";
    else if (separators.length > 1) thousands = only;
    else {
      const after = digitRuns[1]!.length;
      if (after <= 2) decimal = only;
      else if (after > 3) return { ok: false, problem: "decimals" };
      else if (only === ",") thousands = ",";
      else return { ok: false, problem: "ambiguous" };
    }
  }

  const fraction = decimal === null ? "" : digitRuns.pop()!;
  if (fraction.length > 2) return { ok: false, problem: "decimals" };
  if (thousands !== null) {
    const [head, ...groups] = digitRuns;
    if (!/^[1-9]\d{0,2}$/.test(head!) || groups.some((g) => g.length !== 3)) return { ok: false, problem: "grouping" };
  } else if (digitRuns.length !== 1) return { ok: false, problem: "grouping" };
  const rands = digitRuns.join("").replace(/^0+(?=\d)/, "");
  if (rands.length > MAX_RAND_DIGITS) return { ok: false, problem: "large" };
  return { ok: true, cents: Number(rands) * 100 + Number(fraction.padEnd(2, "0")) };
}

/** Cents from what was typed, or null when `readRand` refuses it. */
export function parseRandToCents(typed: string): number | null {
  const reading = readRand(typed);
  return reading.ok ? reading.cents : null;
}

/** The field message for a refused amount, e.g. "Price can't be negative." */
export function randProblemMessage(label: string, problem: RandProblem, typed: string, maxCents: number): string {
  switch (problem) {
    case "empty":
      return `${label} is required: an amount in rand, e.g. 650 or 650,00.`;
    case "negative":
      return `${label} can't be negative.`;
    case "grouping":
      return (
        `${label} has a separator in the wrong place: group thousands in threes (1 500 or 1,500) and put the ` +
        `cents after one comma or dot (650,50).`
      );
    case "decimals":
      return `${label} has more than two decimals: cents take two digits, e.g. 650,50.`;
    case "ambiguous": {
      const digits = typed.replace(/\D/g, "").replace(/^0+(?=\d)/, "");
      return (
        `${label} ${typed.trim()} is unclear: type ${digits} for ${formatRand(Number(digits) * 100)}, or write ` +
        `cents with two decimals (e.g. 1.50).`
      );
    }
    case "large":
      return `${label} can be at most ${formatRand(maxCents)}.`;
    default:
      return `${label} must be an amount in rand, e.g. 650, 650,00 or 1 500,50.`;
  }
}

export interface RandRules {
  /** The field's label, which starts each message. */
  label: string;
  minCents: number;
  maxCents: number;
}

/** One typed amount checked against its field's rules: cents, or the message shown beside the field. */
export function checkRand(
  typed: string,
  rules: RandRules,
): { ok: true; cents: number } | { ok: false; message: string } {
  const reading = readRand(typed);
  if (!reading.ok)
    return { ok: false, message: randProblemMessage(rules.label, reading.problem, typed, rules.maxCents) };
  if (reading.cents > rules.maxCents)
    return { ok: false, message: randProblemMessage(rules.label, "large", typed, rules.maxCents) };
  if (reading.cents < rules.minCents)
    return { ok: false, message: `${rules.label} must be at least ${formatRand(rules.minCents)}.` };
  return reading;
}

const timesWords: Record<number, string> = { 10: "a tenth", 100: "a hundredth", 1000: "a thousandth" };

/**
 * The question an edit asks before a price moves tenfold or more either way (most often a
 * separator read the wrong way), or null when the change is smaller.
 */
export function tenfoldPriceChange(currentCents: number | null, newCents: number | null): string | null {
  if (currentCents === null || newCents === null || currentCents <= 0 || newCents <= 0) return null;
  const ask = (relation: string) =>
    `${formatRand(newCents)} is ${relation} the current ${formatRand(currentCents)}. Save again to confirm.`;
  if (newCents >= currentCents * 10) {
    const times = newCents / currentCents;
    const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return ask(Number.isInteger(times) ? `${grouped(times)} times` : `more than ${grouped(Math.floor(times))} times`);
  }
  if (newCents * 10 <= currentCents) {
    const fraction = currentCents / newCents;
    return ask(
      Number.isInteger(fraction) && timesWords[fraction] ? `${timesWords[fraction]} of` : "less than a tenth of",
    );
  }
  return null;
}
