import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, addMonths, GRACE_DAYS, renewalStartsOn, southAfricanDay, statusOn } from "./periods";

/** Every South African day from 1 January 2024 to 31 December 2027: four years, one of them a leap year. */
const DAYS: string[] = [];
for (let day = "2024-01-01"; day <= "2027-12-31"; day = addDays(day, 1)) DAYS.push(day);
const anyDay = fc.constantFrom(...DAYS);

const parts = (day: string) => day.split("-").map(Number) as [number, number, number];
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

describe("one period is one calendar month, in South African days", () => {
  it("covers the four-year span day by day", () => {
    expect(DAYS).toHaveLength(366 + 365 * 3);
    expect(DAYS.at(-1)).toBe("2027-12-31");
  });

  it("the examples: 31 January + 1 month is 28 or 29 February; 28 February + 1 month is 28 March", () => {
    expect(addMonths("2026-01-31", 1)).toBe("2026-02-28");
    expect(addMonths("2024-01-31", 1)).toBe("2024-02-29");
    expect(addMonths("2026-02-28", 1)).toBe("2026-03-28");
    expect(addMonths("2025-12-31", 1)).toBe("2026-01-31");
    expect(addMonths("2026-03-31", 1)).toBe("2026-04-30");
    expect(addMonths("2025-11-15", 3)).toBe("2026-02-15");
  });

  it("every day of the span: a month later is the next calendar month, same day or that month's last day", () => {
    for (const day of DAYS) {
      const [y, m, d] = parts(day);
      const next = addMonths(day, 1);
      const [ny, nm, nd] = parts(next);
      expect(ny * 12 + nm, day).toBe(y * 12 + m + 1);
      expect(nd, day).toBe(Math.min(d, daysInMonth(ny, nm)));
      const length = (Date.parse(next) - Date.parse(day)) / 86_400_000;
      expect(length, day).toBeGreaterThanOrEqual(28);
      expect(length, day).toBeLessThanOrEqual(31);
    }
  });

  it("every day of the span: each hour of the South African day belongs to it, whatever the UTC date", () => {
    for (const day of DAYS) {
      const midnight = new Date(`${day}T00:00:00+02:00`);
      expect(southAfricanDay(midnight), day).toBe(day);
      expect(southAfricanDay(new Date(midnight.getTime() + 86_400_000 - 1)), day).toBe(day);
      // 23:30 UTC the evening before is already this day in South Africa.
      expect(southAfricanDay(new Date(`${addDays(day, -1)}T23:30:00Z`)), day).toBe(day);
    }
  });

  it(
    "any instant of the span (fast-check): its South African day is the UTC date two hours on, and a month from it " +
      "stays in the next calendar month",
    () => {
      const from = Date.parse("2024-01-01T00:00:00+02:00");
      const to = Date.parse("2028-01-01T00:00:00+02:00");
      const inSpan = new Set(DAYS);
      fc.assert(
        fc.property(fc.integer({ min: from, max: to - 1 }), (ms) => {
          const day = southAfricanDay(new Date(ms));
          // South Africa keeps GMT+2 all year: no daylight saving to shift a day.
          expect(day).toBe(new Date(ms + 2 * 3_600_000).toISOString().slice(0, 10));
          expect(inSpan.has(day)).toBe(true);
          const [y, m, d] = parts(day);
          const [ny, nm, nd] = parts(addMonths(day, 1));
          expect(ny * 12 + nm).toBe(y * 12 + m + 1);
          expect(nd).toBe(Math.min(d, daysInMonth(ny, nm)));
        }),
        { numRuns: 5_000 },
      );
    },
  );

  it("n months at once is n single months for days up to the 28th, and never beyond a month's end", () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: 0, max: 48 }), (day, n) => {
        const [, , d] = parts(day);
        const jump = addMonths(day, n);
        let stepped = day;
        for (let i = 0; i < n; i++) stepped = addMonths(stepped, 1);
        if (d <= 28) expect(jump).toBe(stepped);
        const [jy, jm, jd] = parts(jump);
        expect(jd).toBeLessThanOrEqual(daysInMonth(jy, jm));
        expect(addMonths(jump, 0)).toBe(jump);
      }),
    );
  });

  it("months are ordered: a later start never ends earlier", () => {
    fc.assert(
      fc.property(anyDay, anyDay, (a, b) => {
        const [first, second] = a <= b ? [a, b] : [b, a];
        expect(addMonths(first, 1) <= addMonths(second, 1)).toBe(true);
      }),
    );
  });
});

describe("status on a day, and where a paid month starts", () => {
  it("active before paid-until, due for the grace week from it, lapsed after; cancelled stays cancelled", () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: -40, max: 40 }), (paidUntil, offset) => {
        const today = addDays(paidUntil, offset);
        const expected = offset < 0 ? "active" : offset < GRACE_DAYS ? "due" : "lapsed";
        expect(statusOn({ status: "active", paidUntil }, today)).toBe(expected);
        expect(statusOn({ status: "due", paidUntil }, today)).toBe(expected);
        expect(statusOn({ status: "cancelled", paidUntil }, today)).toBe("cancelled");
      }),
    );
  });

  it("an early or grace-week renewal extends from paid-until; a lapsed one starts today", () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: -40, max: 40 }), (paidUntil, offset) => {
        const today = addDays(paidUntil, offset);
        const start = renewalStartsOn(paidUntil, today);
        const lapsed = statusOn({ status: "active", paidUntil }, today) === "lapsed";
        expect(start).toBe(lapsed ? today : paidUntil);
      }),
    );
  });
});
