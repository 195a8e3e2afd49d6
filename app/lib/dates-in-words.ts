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
