/** Dashboard days are South African days (Africa/Johannesburg: GMT+2 all year, no daylight saving). */
export const SA_OFFSET_MS = 2 * 3600_000;

/** "YYYY-MM-DD" of the South African day containing `at`. */
export function saDay(at: Date): string {
  return new Date(at.getTime() + SA_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant a South African day starts. */
export function saDayStart(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - SA_OFFSET_MS);
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export const PERIODS = [
  { value: "today", label: "Today", days: 1 },
  { value: "7d", label: "Last 7 days", days: 7 },
  { value: "30d", label: "Last 30 days", days: 30 },
  { value: "90d", label: "Last 90 days", days: 90 },
  { value: "all", label: "All time", days: null },
] as const;

export type Period = (typeof PERIODS)[number]["value"];
export const DEFAULT_PERIOD: Period = "all";

export function parsePeriod(value: string | null | undefined): Period {
  return PERIODS.some((p) => p.value === value) ? (value as Period) : DEFAULT_PERIOD;
}

/** First day of the period (inclusive), or null for all time. */
export function periodStartDay(period: Period, now: Date): string | null {
  const days = PERIODS.find((p) => p.value === period)?.days;
  return days ? addDays(saDay(now), -(days - 1)) : null;
}
