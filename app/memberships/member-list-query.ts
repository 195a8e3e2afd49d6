import { pageParam, textParam } from "~/admin/list-query";
import type { MemberStatus } from "./periods";

export const MEMBER_STATUSES = ["active", "due", "lapsed", "cancelled"] as const satisfies readonly MemberStatus[];

export const MEMBER_STATUS_LABELS: Record<MemberStatus, string> = {
  active: "Active",
  due: "Due",
  lapsed: "Lapsed",
  cancelled: "Cancelled",
};

/** The filter for members who need a renewal within the week: active and due in 7 days, or due and lapsing. */
export const SOON = "soon";
export const SOON_DAYS = 7;
export const SOON_LABEL = "Due or lapsing within 7 days";

export interface MemberListQuery {
  /** Name or email, any part of it. */
  q: string;
  /** A tier's slug, or "" for every tier. */
  tier: string;
  /** A member status, "soon" (due or lapsing within the week, the dashboard's list), or "" for every status. */
  status: "" | MemberStatus | typeof SOON;
  page: number;
}

/** The members list's filters from its query string (the list page and its CSV export read the same). */
export function readMemberQuery(search: URLSearchParams): MemberListQuery {
  const status = textParam(search, "status", 20);
  return {
    q: textParam(search, "q"),
    tier: textParam(search, "tier", 80),
    status:
      status === SOON ? SOON : (MEMBER_STATUSES as readonly string[]).includes(status) ? (status as MemberStatus) : "",
    page: pageParam(search),
  };
}
