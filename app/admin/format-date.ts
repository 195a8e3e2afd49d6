/** Dates in the admin, in South African time: "25 Nov 2026, 14:05". (Public pages avoid Intl: decision 072.) */
const dateTime = new Intl.DateTimeFormat("en-ZA", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "Africa/Johannesburg",
});

export const formatDateTime = (iso: string | Date) => dateTime.format(new Date(iso));
