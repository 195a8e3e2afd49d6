import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  dayMonthInSouthAfrica,
  dayMonthYear,
  eventDatesInSouthAfrica,
  eventTimesInSouthAfrica,
} from "./dates-in-words";

const enZA = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("en-ZA", options);
// Any instant from 1970 to 2100: the site's posts and events fall well inside it.
const instant = fc.date({
  min: new Date("1970-01-01T00:00:00Z"),
  max: new Date("2100-12-31T23:59:59Z"),
  noInvalidDate: true,
});

describe("dates in words", () => {
  it("writes a calendar day as en-ZA does, without a leading zero", () => {
    expect(dayMonthYear("2026-11-02")).toBe("2 November 2026");
    expect(dayMonthYear("2025-12-25")).toBe("25 December 2025");
    fc.assert(
      fc.property(instant, (date) => {
        const isoDay = date.toISOString().slice(0, 10);
        expect(dayMonthYear(isoDay)).toBe(
          enZA({ day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(date),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("names the day in South Africa, which is two hours ahead of UTC all year", () => {
    expect(dayMonthInSouthAfrica(new Date("2026-01-31T21:59:59Z"))).toBe("31 January");
    expect(dayMonthInSouthAfrica(new Date("2026-01-31T22:00:00Z"))).toBe("1 February");
    fc.assert(
      fc.property(instant, (date) => {
        expect(dayMonthInSouthAfrica(date)).toBe(
          enZA({ day: "numeric", month: "long", timeZone: "Africa/Johannesburg" }).format(date),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("writes an event's dates and times in South Africa, one day or a range", () => {
    const at = (iso: string) => new Date(iso);
    expect(eventDatesInSouthAfrica(at("2025-10-10T10:00:00+02:00"), at("2025-10-10T13:00:00+02:00"))).toBe(
      "10 October 2025",
    );
    expect(eventDatesInSouthAfrica(at("2025-08-23T10:00:00+02:00"), at("2025-08-30T14:00:00+02:00"))).toBe(
      "23 - 30 August 2025",
    );
    expect(eventDatesInSouthAfrica(at("2025-09-30T10:00:00+02:00"), at("2025-10-02T14:00:00+02:00"))).toBe(
      "30 September - 2 October 2025",
    );
    expect(eventDatesInSouthAfrica(at("2025-12-30T10:00:00+02:00"), at("2026-01-02T14:00:00+02:00"))).toBe(
      "30 December 2025 - 2 January 2026",
    );
    expect(eventDatesInSouthAfrica(at("2025-10-10T23:30:00+02:00"), null)).toBe("10 October 2025");
    expect(eventTimesInSouthAfrica(at("2025-10-10T08:00:00Z"), at("2025-10-10T11:30:00Z"))).toBe("10:00 - 13:30");
    expect(eventTimesInSouthAfrica(at("2025-10-10T22:05:00Z"), null)).toBe("00:05");
    const time = enZA({ hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "Africa/Johannesburg" });
    const day = enZA({ day: "numeric", month: "long", year: "numeric", timeZone: "Africa/Johannesburg" });
    fc.assert(
      fc.property(instant, (date) => {
        expect(eventTimesInSouthAfrica(date, null)).toBe(time.format(date));
        expect(eventDatesInSouthAfrica(date, null)).toBe(day.format(date));
      }),
      { numRuns: 2000 },
    );
  });
});
