import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { checkRand, formatRand, parseRandToCents, readRand, tenfoldPriceChange } from "./money";
import { randField } from "./rand-field";

const NBSP = "\u00a0";
const NARROW_NBSP = "\u202f";

/** Rands grouped in threes with `separator`: 1500000 -> "1 500 000". */
const grouped = (rands: number, separator: string) => String(rands).replace(/\B(?=(\d{3})+(?!\d))/g, separator);

/** Every way the brief says a South African writes an amount, for cents from R 0.00 up. */
function writings(cents: number): string[] {
  const rands = Math.floor(cents / 100);
  const cc = String(cents % 100).padStart(2, "0");
  const out = [
    `${rands}.${cc}`,
    `${rands},${cc}`,
    `R${rands}.${cc}`,
    `R ${grouped(rands, " ")},${cc}`,
    `${grouped(rands, " ")},${cc}`,
    `${grouped(rands, ",")}.${cc}`,
    `${grouped(rands, ".")},${cc}`,
    `${grouped(rands, NBSP)},${cc}`,
    `R${NBSP}${grouped(rands, NARROW_NBSP)},${cc}`,
    `  r ${grouped(rands, " ")}.${cc} `,
    formatRand(cents),
  ];
  if (cents % 100 === 0)
    out.push(`${rands}`, `R${rands}`, grouped(rands, " "), grouped(rands, ","), grouped(rands, NARROW_NBSP));
  if (cents % 10 === 0) out.push(`${rands},${cc[0]}`, `${grouped(rands, " ")}.${cc[0]}`);
  return out;
}

describe("readRand: an amount as a South African types it", () => {
  it.each([
    ["650", 65000],
    ["650.00", 65000],
    ["650,00", 65000],
    ["R650", 65000],
    ["R 650,50", 65050],
    ["1 500", 150000],
    ["1 500,50", 150050],
    ["1,500.50", 150050],
    ["1.500,50", 150050],
    ["1,500", 150000],
    ["12,345,678", 1234567800],
    ["1.500.000", 150000000],
    ["1.500.000,05", 150000005],
    [`1${NBSP}500,50`, 150050],
    [`1${NARROW_NBSP}500${NARROW_NBSP}000`, 150000000],
    ["650,5", 65050],
    ["0,99", 99],
    ["0650", 65000],
    ["r 45", 4500],
  ])("%j is %i cents", (typed, cents) => {
    expect(readRand(typed)).toEqual({ ok: true, cents });
  });

  it.each([
    ["6,5,0", "grouping"],
    ["1.5.0", "grouping"],
    ["1 50", "grouping"],
    ["1,50,000", "grouping"],
    ["12,50,000.00", "grouping"],
    ["1,500,50", "grouping"],
    ["1.500.50", "grouping"],
    ["1,500.000,50", "grouping"],
    ["1 500,000.50", "grouping"],
    ["1.50,00", "grouping"],
    ["0,500,000", "grouping"],
    ["1  500", "grouping"],
    ["650,", "grouping"],
    ["650.", "grouping"],
    ["1 500 ,50", "grouping"],
    ["-5", "negative"],
    ["−5", "negative"],
    ["R -5", "negative"],
    ["-R5", "negative"],
    ["1e3", "malformed"],
    ["0x10", "malformed"],
    ["Infinity", "malformed"],
    ["four hundred", "malformed"],
    [",50", "malformed"],
    [".50", "malformed"],
    ["+5", "malformed"],
    ["R", "malformed"],
    ["650 R", "malformed"],
    ["६५०", "malformed"],
    ["650.505", "ambiguous"],
    ["650,5050", "decimals"],
    ["1 500,000", "decimals"],
    ["1,500.505", "decimals"],
    ["1.500", "ambiguous"],
    ["12.345", "ambiguous"],
    ["1234567890123", "large"],
    ["", "empty"],
    ["   ", "empty"],
  ])("%j is refused (%s)", (typed, problem) => {
    expect(readRand(typed)).toEqual({ ok: false, problem });
    expect(parseRandToCents(typed)).toBeNull();
  });

  it("every writing of every amount from R 0.00 to R 1,000,000.00 reads as the same cents, and the shown amount reads back", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (cents) => {
        for (const typed of writings(cents)) expect([typed, parseRandToCents(typed)]).toEqual([typed, cents]);
      }),
      {
        numRuns: 2000,
        examples: [[0], [1], [99], [100], [65000], [99999], [100000], [150050], [99_999_999], [100_000_000]],
      },
    );
  });

  it("a third decimal is refused whatever the amount, never rounded", () => {
    const decimals = fc
      .tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 9 }))
      .map(([cc, extra]) => `${String(cc).padStart(2, "0")}${extra}`);
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 1_000_000 }),
        decimals,
        fc.constantFrom([" ", ","], [",", "."], [".", ","], [NBSP, "."]),
        (rands, digits, [thousands, decimal]) => {
          // Once thousands are grouped, the one remaining separator holds the cents: three digits there are too many.
          expect(readRand(`${grouped(rands, thousands!)}${decimal}${digits}`)).toEqual({
            ok: false,
            problem: "decimals",
          });
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        decimals,
        fc.integer({ min: 0, max: 9 }),
        fc.constantFrom(".", ","),
        (rands, digits, more, decimal) => {
          expect(readRand(`${rands}${decimal}${digits}${more}`)).toEqual({ ok: false, problem: "decimals" });
        },
      ),
    );
  });

  it("a thousands group that is not three digits is refused whatever the amount", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999 }),
        fc.stringMatching(/^\d{1,2}$|^\d{4,5}$/),
        fc.constantFrom(" ", NBSP, NARROW_NBSP),
        (head, group, sep) => {
          expect(readRand(`${head}${sep}${group}${sep}000`).ok).toBe(false);
        },
      ),
    );
  });
});

describe("checkRand and randField: the message beside the field", () => {
  const rules = { label: "Price", minCents: 100, maxCents: 100_000_000 };
  it.each([
    [
      "6,5,0",
      "Price has a separator in the wrong place: group thousands in threes (1 500 or 1,500) and put the cents after " +
        "one comma or dot (650,50).",
    ],
    [
      "1.5.0",
      "Price has a separator in the wrong place: group thousands in threes (1 500 or 1,500) and put the cents after " +
        "one comma or dot (650,50).",
    ],
    ["-5", "Price can't be negative."],
    ["1e3", "Price must be an amount in rand, e.g. 650, 650,00 or 1 500,50."],
    ["650,5050", "Price has more than two decimals: cents take two digits, e.g. 650,50."],
    ["1.500", "Price 1.500 is unclear: type 1500 for R 1,500.00, or write cents with two decimals (e.g. 1.50)."],
    ["0,50", "Price must be at least R 1.00."],
    ["1 000 000,01", "Price can be at most R 1,000,000.00."],
    ["99999999999999", "Price can be at most R 1,000,000.00."],
    ["", "Price is required: an amount in rand, e.g. 650 or 650,00."],
  ])("%j: %s", (typed, message) => {
    expect(checkRand(typed, rules)).toEqual({ ok: false, message });
    const parsed = z.object({ price: randField(rules) }).safeParse({ price: typed });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([expect.objectContaining({ path: ["price"], message })]);
  });

  it("keeps the text as typed, trimmed, and lets an empty optional field through", () => {
    const schema = z.object({ price: randField({ ...rules, optional: true }) });
    expect(schema.safeParse({ price: " R 1 500,50 " })).toEqual({ success: true, data: { price: "R 1 500,50" } });
    expect(schema.safeParse({ price: "" })).toEqual({ success: true, data: { price: "" } });
    expect(checkRand("R 1 000 000,00", rules)).toEqual({ ok: true, cents: 100_000_000 });
  });
});

describe("tenfoldPriceChange: the question before a tenfold price change", () => {
  it.each([
    [65000, 650000, "R 6,500.00 is 10 times the current R 650.00. Save again to confirm."],
    [65000, 6500000, "R 65,000.00 is 100 times the current R 650.00. Save again to confirm."],
    [65000, 700000, "R 7,000.00 is more than 10 times the current R 650.00. Save again to confirm."],
    [100, 100_000_000, "R 1,000,000.00 is 1,000,000 times the current R 1.00. Save again to confirm."],
    [65000, 6500, "R 65.00 is a tenth of the current R 650.00. Save again to confirm."],
    [65000, 650, "R 6.50 is a hundredth of the current R 650.00. Save again to confirm."],
    [65000, 5000, "R 50.00 is less than a tenth of the current R 650.00. Save again to confirm."],
  ])("%i -> %i asks", (current, next, question) => {
    expect(tenfoldPriceChange(current, next)).toBe(question);
  });

  it.each([
    [65000, 649999],
    [65000, 6501],
    [65000, 65000],
    [null, 6500000],
    [65000, null],
  ])("%j -> %j does not ask", (current, next) => {
    expect(tenfoldPriceChange(current, next)).toBeNull();
  });
});
