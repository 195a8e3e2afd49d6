import { dayMonthYear } from "~/lib/dates-in-words";
import { addDays, GRACE_DAYS, type MemberStatus } from "./periods";

export const STATUS_LABELS: Record<MemberStatus, string> = {
  active: "Active",
  due: "Payment due",
  lapsed: "Lapsed",
  cancelled: "Cancelled",
};

/**
 * A member's status in plain words for /account: the label and one sentence with the date that matters.
 * `paidUntil` is the day the next payment is due (the member has paid for every day before it).
 */
export function statusInWords(
  status: MemberStatus,
  paidUntil: string,
  today: string,
): { label: string; sentence: string } {
  const until = dayMonthYear(paidUntil);
  switch (status) {
    case "active":
      return { label: STATUS_LABELS.active, sentence: `Paid until ${until}.` };
    case "due":
      return {
        label: STATUS_LABELS.due,
        sentence: `Your payment was due on ${until}. Renew by ${dayMonthYear(addDays(paidUntil, GRACE_DAYS))} to keep your membership.`,
      };
    case "lapsed":
      return {
        label: STATUS_LABELS.lapsed,
        sentence: `Your membership lapsed on ${dayMonthYear(addDays(paidUntil, GRACE_DAYS))}. Renew to start again.`,
      };
    case "cancelled":
      return today < paidUntil
        ? {
            label: STATUS_LABELS.cancelled,
            sentence: `Cancelled: ends on ${until}. You keep your membership until then.`,
          }
        : { label: STATUS_LABELS.cancelled, sentence: `Cancelled: ended on ${until}.` };
  }
}
