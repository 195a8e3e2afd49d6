import { pageParam, textParam } from "~/admin/list-query";

export const ORDER_STATUSES = [
  "pending",
  "paid",
  "failed",
  "cancelled",
  "expired",
  "refunded",
  "partially_refunded",
] as const;
export const ORDER_TYPES = ["product", "service", "membership", "workshop", "ticket"] as const;

export interface OrderListQuery {
  q: string;
  /** An order status, "attention" (paid but needing the owner), "to-post" (a paid product not yet sent) or "refund-pending". */
  status: string;
  type: string;
  /** South African days, YYYY-MM-DD, both included. */
  from: string;
  to: string;
  event: string;
  page: number;
}

/** The orders list's filters from its query string (the list page and its CSV export read the same). */
export function readOrderQuery(search: URLSearchParams): OrderListQuery {
  return {
    q: textParam(search, "q"),
    status: textParam(search, "status", 40),
    type: textParam(search, "type", 40),
    from: textParam(search, "from", 10),
    to: textParam(search, "to", 10),
    event: textParam(search, "event", 200),
    page: pageParam(search),
  };
}
