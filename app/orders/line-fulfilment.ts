/**
 * Where one order line stands with the owner (issue 39, decision 137): a product or service line waits
 * until she marks it, unless every unit of it was refunded away; a ticket or membership line has nothing
 * to send.
 */
export type LineFulfilment = "waiting" | "sent" | "refunded" | "none";

export interface LineFulfilmentFacts {
  catalogItemId: number | null;
  quantity: number;
  fulfilmentStatus: string;
  /** Units refunded or on their way back (refunds not failed), as decision 124 counts them. */
  unitsRefunded: number;
  fulfilmentMethod?: string | null;
}

export function lineFulfilment(line: LineFulfilmentFacts): LineFulfilment {
  if (line.catalogItemId === null) return "none";
  if (line.fulfilmentStatus === "fulfilled") return "sent";
  return line.quantity - line.unitsRefunded > 0 ? "waiting" : "refunded";
}

/** How many of an order's lines were sent, still wait, or were refunded away before being sent. */
export interface LineCounts {
  sent: number;
  waiting: number;
  refunded: number;
  /** How a line sent went, for an order whose last waiting line was refunded away rather than marked. */
  sentMethod?: string | null;
}

export function countLines(states: LineFulfilment[]): LineCounts {
  const counts: LineCounts = { sent: 0, waiting: 0, refunded: 0 };
  for (const state of states) if (state !== "none") counts[state] += 1;
  return counts;
}

export const lineCounts = (lines: LineFulfilmentFacts[]): LineCounts => ({
  ...countLines(lines.map(lineFulfilment)),
  sentMethod: lines.findLast((l) => lineFulfilment(l) === "sent")?.fulfilmentMethod ?? null,
});

/**
 * The summary of an order of several lines to send: "Fulfilled", "2 of 3 items sent", "Unfulfilled";
 * null when the order has fewer than two, and reads as an order of one item always did.
 */
export function severalLinesWords(counts: LineCounts): string | null {
  const toSend = counts.sent + counts.waiting;
  if (toSend === 0 && counts.refunded > 0) return "Nothing to send";
  if (toSend < 2) return null;
  if (counts.waiting === 0) return "Fulfilled";
  if (counts.sent === 0) return "Unfulfilled";
  return `${counts.sent} of ${toSend} items sent`;
}

const SENT: Record<string, string> = { posted: "Posted", collected: "Handed over", "service done": "Done" };

/**
 * What the buyer reads of her paid order's products and services (her order page, /account): the same
 * summary as the owner's for several lines, and for one, how it went or that it is still to come.
 */
export function buyerFulfilmentWords(order: {
  orderType: string;
  fulfilmentMethod: string | null;
  lines: LineCounts;
}): string | null {
  if (order.orderType !== "product" && order.orderType !== "service") return null;
  const several = severalLinesWords(order.lines);
  if (several) return several;
  if (order.lines.waiting > 0) return order.orderType === "service" ? "Booked" : "Being prepared";
  return SENT[order.fulfilmentMethod ?? order.lines.sentMethod ?? ""] ?? "Sent";
}
