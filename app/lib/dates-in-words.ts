// Dates in words, written out by hand rather than with Intl.DateTimeFormat: the first formatter a page
// builds loads ICU's locale data (and, with a time zone, its zone data), which cost about 20 ms of the
// blog's and the ticket page's hydration in Lighthouse's runs on this machine, four times that on the
// phone it simulates (issue 6). The output is what `en-ZA` prints; dates-in-words.test.ts holds it to that.

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "2 November 2026" for the calendar day "2026-11-02". */
export function dayMonthYear(isoDay: string): string {
  const [year, month, day] = isoDay.split("-").map(Number);
  return `${day} ${MONTHS[month - 1]} ${year}`;
}

// South Africa has kept UTC+2 all year round since 1944: no daylight saving to look up.
const SOUTH_AFRICA_OFFSET_MS = 2 * 60 * 60 * 1000;

/** "15 September": the day on which the instant falls in South Africa. */
export function dayMonthInSouthAfrica(instant: Date): string {
  const local = new Date(instant.getTime() + SOUTH_AFRICA_OFFSET_MS);
  return `${local.getUTCDate()} ${MONTHS[local.getUTCMonth()]}`;
}

interface LocalParts {
  day: number;
  month: number;
  year: number;
  time: string;
}

function southAfricanParts(instant: Date): LocalParts {
  const local = new Date(instant.getTime() + SOUTH_AFRICA_OFFSET_MS);
  return {
    day: local.getUTCDate(),
    month: local.getUTCMonth(),
    year: local.getUTCFullYear(),
    time: local.toISOString().slice(11, 16),
  };
}

/**
 * An event's date text in South Africa: "10 October 2025", "23 - 30 August 2025",
 * "30 September - 2 October 2025" or "30 December 2025 - 2 January 2026".
 */
export function eventDatesInSouthAfrica(starts: Date, ends: Date | null): string {
  const a = southAfricanParts(starts);
  const full = (p: LocalParts) => `${p.day} ${MONTHS[p.month]} ${p.year}`;
  if (!ends) return full(a);
  const b = southAfricanParts(ends);
  if (a.year !== b.year) return `${full(a)} - ${full(b)}`;
  if (a.month !== b.month) return `${a.day} ${MONTHS[a.month]} - ${full(b)}`;
  if (a.day !== b.day) return `${a.day} - ${full(b)}`;
  return full(a);
}

/** An event's time text in South Africa: "10:00 - 13:00", or "10:00" with no end. */
export function eventTimesInSouthAfrica(starts: Date, ends: Date | null): string {
  const from = southAfricanParts(starts).time;
  return ends ? `${from} - ${southAfricanParts(ends).time}` : from;
}
