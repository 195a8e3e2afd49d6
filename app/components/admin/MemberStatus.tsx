import { MEMBER_STATUS_LABELS } from "~/memberships/member-list-query";
import type { MemberStatus } from "~/memberships/periods";

const STYLES: Record<MemberStatus, string> = {
  active: "bg-ink text-cream",
  due: "bg-honey-light text-ink",
  lapsed: "bg-red-800 text-white",
  cancelled: "bg-cream-deep text-ink",
};

/** A member's status as a badge: its word carries the meaning, the colour only repeats it. */
export function MemberStatusBadge({ status }: { status: MemberStatus }) {
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${STYLES[status]}`}>
      {MEMBER_STATUS_LABELS[status]}
    </span>
  );
}
