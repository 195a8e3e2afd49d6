import { formatRand } from "~/lib/money";
import { severalLinesWords, type LineCounts } from "./line-fulfilment";

/**
 * What an order still asks of the owner, in her words. Only a physical product is posted or handed
 * over; a service is marked done; tickets are issued with the payment and a membership is its payment,
 * so neither ever waits for her.
 */
export interface FulfilmentFacts {
  orderType: string;
  status: string;
  fulfilment: string;
  fulfilmentMethod?: string | null;
  /** Its lines to send, where known: each product or service line is marked on its own (issue 39). */
  lines?: LineCounts;
}

const PAID = new Set(["paid", "partially_refunded"]);

/** Whether the order page offers "Mark posted or handed over" / "Mark done". */
export function ownerFulfils(orderType: string): boolean {
  return orderType === "product" || orderType === "service";
}

export function fulfilmentWords(order: FulfilmentFacts): string {
  if (!PAID.has(order.status)) return "";
  if (order.orderType === "ticket" || order.orderType === "workshop") return "Tickets issued";
  if (order.orderType === "membership") return "Nothing to send";
  const several = order.lines ? severalLinesWords(order.lines) : null;
  if (several) return several;
  const done = !fulfilmentWaits(order);
  if (order.orderType === "service") return done ? "Done" : "To do";
  const method = order.fulfilmentMethod ?? order.lines?.sentMethod;
  if (done) return method === "collected" ? "Handed over" : "Posted";
  return "To post or hand over";
}

/** Whether the words above ask her to act (the list shows these in bold). */
export function fulfilmentWaits(order: FulfilmentFacts): boolean {
  if (!PAID.has(order.status) || !ownerFulfils(order.orderType)) return false;
  // A line refunded away before it was sent no longer waits (issue 39).
  const { sent = 0, waiting = 0, refunded = 0 } = order.lines ?? {};
  if (sent + waiting + refunded > 0) return waiting > 0;
  return order.fulfilment !== "fulfilled";
}

const dayMonth = new Intl.DateTimeFormat("en-ZA", { day: "numeric", month: "short", timeZone: "Africa/Johannesburg" });

/** "Refunded R 350.00 on 27 Nov", or for a part: "Refunded R 100.00 of R 350.00 on 27 Nov". */
export function refundWords(order: {
  status: string;
  amountCents: number;
  refundedCents: number;
  refundedAt?: string | null;
}): string | null {
  if (order.status !== "refunded" && order.status !== "partially_refunded") return null;
  const on = order.refundedAt ? ` on ${dayMonth.format(new Date(order.refundedAt))}` : "";
  const of = order.status === "partially_refunded" ? ` of ${formatRand(order.amountCents)}` : "";
  return `Refunded ${formatRand(order.refundedCents)}${of}${on}`;
}
