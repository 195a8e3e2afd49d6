import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dayMonthInSouthAfrica, dayMonthYear } from "./dates-in-words";

const enZA = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("en-ZA", options);
// Any instant from 1970 to 2100: the site's posts and events fall well inside it.
const instant = fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-12-31T23:59:59Z"), noInvalidDate: true });

describe("dates in words", () => {
  it("writes a calendar day as en-ZA does, without a leading zero", () => {
    expect(dayMonthYear("2026-11-02")).toBe("2 November 2026");
    expect(dayMonthYear("2025-12-25")).toBe("25 December 2025");
    fc.assert(
      fc.property(instant, (date) => {
        const isoDay = date.toISOString().slice(0, 10);
        expect(dayMonthYear(isoDay)).toBe(enZA({ day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(date));
      }),
      { numRuns: 2000 },
    );
  });

  it("names the day in South Africa, which is two hours ahead of UTC all year", () => {
    expect(dayMonthInSouthAfrica(new Date("2026-01-31T21:59:59Z"))).toBe("31 January");
    expect(dayMonthInSouthAfrica(new Date("2026-01-31T22:00:00Z"))).toBe("1 February");
    fc.assert(
      fc.property(instant, (date) => {
        expect(dayMonthInSouthAfrica(date)).toBe(enZA({ day: "numeric", month: "long", timeZone: "Africa/Johannesburg" }).format(date));
      }),
      { numRuns: 2000 },
    );
  });
});
