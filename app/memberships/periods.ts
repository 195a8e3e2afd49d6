/**
 * A membership's calendar: one period is one calendar month in South African time (decision 086).
 * Days are "YYYY-MM-DD" strings of South African days, so no time zone can shift them; pure functions,
 * shared by the server, the job and the pages.
 */
import { addDays, saDay } from "~/analytics/days";

export { addDays, saDay as southAfricanDay };

/** Days between reminders and paid-until: a week ahead, then the day before. */
export const REMINDER_DAYS_BEFORE = [7, 1] as const;
/** Days a member stays "due" after paid-until before the membership lapses. */
export const GRACE_DAYS = 7;

const daysInMonth = (year: number, monthIndex: number) => new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();

/**
 * The same day `months` calendar months later, or the month's last day when it is shorter:
 * 31 January + 1 = 28 (or 29) February; 28 February + 1 = 28 March.
 */
export function addMonths(day: string, months: number): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = index - targetYear * 12;
  const targetDate = Math.min(date, daysInMonth(targetYear, targetMonth));
  return `${String(targetYear).padStart(4, "0")}-${String(targetMonth + 1).padStart(2, "0")}-${String(targetDate).padStart(2, "0")}`;
}

export type MemberStatus = "active" | "due" | "lapsed" | "cancelled";

/**
 * What a member's status is on `today`: a cancelled membership stays cancelled (with access until
 * paid-until); otherwise active before paid-until, due for the grace week from it, lapsed after.
 */
export function statusOn(member: { status: MemberStatus; paidUntil: string }, today: string): MemberStatus {
  if (member.status === "cancelled") return "cancelled";
  if (today < member.paidUntil) return "active";
  if (today < addDays(member.paidUntil, GRACE_DAYS)) return "due";
  return "lapsed";
}

/** True while the member has paid for today (a cancelled member keeps access until paid-until). */
export const hasAccessOn = (member: { paidUntil: string }, today: string) => today < member.paidUntil;

/**
 * Where a paid month starts. Paying early, on the due day or in the grace week extends from paid-until
 * (the days already used are the ones paid for); a member whose membership lapsed starts again today.
 */
export function renewalStartsOn(paidUntil: string, today: string): string {
  return paidUntil > addDays(today, -GRACE_DAYS) ? paidUntil : today;
}
