import { and, eq, inArray, ne } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { orderEvents, orderLines, orders, refundLines, refunds, tickets } from "~/db/schema";
import { formatRand } from "~/lib/money";
import { returnSomeUnits } from "~/stock/hold-sales.server";
import { catalogStockKey, ticketStockKey, variantStockKey } from "~/stock/keys";
import { unitsRefundCents } from "./line-money";

/** What the owner asks to refund of one line: how many units, and for seats which tickets. */
export interface LineRefundAsk {
  orderLineId: number;
  units: number;
  ticketIds: number[];
}

type OrderLineRow = typeof orderLines.$inferSelect;
type Reader = Pick<Tx, "select">;

/** Units of each line of an order already refunded or on their way back (refunds not failed). */
export async function unitsReturned(
  tx: Reader,
  orderId: string,
): Promise<Map<number, { units: number; ticketIds: number[] }>> {
  const rows = await tx
    .select({ lineId: refundLines.orderLineId, units: refundLines.units, ticketIds: refundLines.ticketIds })
    .from(refundLines)
    .innerJoin(refunds, eq(refunds.id, refundLines.refundId))
    .where(and(eq(refunds.orderId, orderId), ne(refunds.status, "failed")));
  const byLine = new Map<number, { units: number; ticketIds: number[] }>();
  for (const row of rows) {
    const seen = byLine.get(row.lineId) ?? { units: 0, ticketIds: [] };
    seen.units += row.units;
    seen.ticketIds.push(...(row.ticketIds ?? []));
    byLine.set(row.lineId, seen);
  }
  return byLine;
}

/** A line's seats that still admit and are in no refund: the ones the owner may pick. */
const openSeats = (line: OrderLineRow, orderTickets: (typeof tickets.$inferSelect)[], refunded: number[]) =>
  orderTickets.filter((t) => t.ticketOptionId === line.ticketOptionId && !t.voided && !refunded.includes(t.id));

/** Each line of an order with what is left to refund of it, for the owner's order page. */
export async function lineRefundChoices(db: Database, orderId: string) {
  const [lines, orderTickets, returned] = await Promise.all([
    db.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(orderLines.id),
    db.select().from(tickets).where(eq(tickets.orderId, orderId)).orderBy(tickets.seatNumber),
    unitsReturned(db, orderId),
  ]);
  return lines.map((line) => {
    const before = returned.get(line.id) ?? { units: 0, ticketIds: [] };
    const left = line.quantity - before.units;
    return {
      id: line.id,
      name: line.displayName,
      quantity: line.quantity,
      left,
      /** What refunding 1, 2, … of the units left gives back. */
      amounts: Array.from({ length: left }, (_, i) => unitsRefundCents(line, before.units, i + 1)),
      seats: line.ticketOptionId
        ? openSeats(line, orderTickets, before.ticketIds).map((t) => ({
            id: t.id,
            seat: t.seatNumber,
            name: t.holderName,
          }))
        : null,
    };
  });
}

/**
 * Prices a refund of some units of one line, in the refund's transaction under the order's lock: the
 * amount is what those units were charged (unitsRefundCents), never typed. Refuses units beyond what is
 * left of the line, seats not the line's or already refunded, and more than is left of the order.
 */
export async function priceLineRefund(
  tx: Reader,
  order: typeof orders.$inferSelect,
  ask: LineRefundAsk,
  leftOfOrderCents: number,
): Promise<
  | { ok: true; amountCents: number; row: Omit<typeof refundLines.$inferInsert, "refundId"> }
  | { ok: false; error: string }
> {
  const [line] = await tx
    .select()
    .from(orderLines)
    .where(and(eq(orderLines.id, ask.orderLineId), eq(orderLines.orderId, order.id)));
  if (!line) return { ok: false, error: "That line is not part of this order." };
  const before = (await unitsReturned(tx, order.id)).get(line.id) ?? { units: 0, ticketIds: [] };
  const left = line.quantity - before.units;
  if (left < 1) return { ok: false, error: `${line.displayName} is already refunded in full.` };
  let ticketIds: number[] | null = null;
  let units = ask.units;
  if (line.ticketOptionId) {
    const orderTickets = await tx.select().from(tickets).where(eq(tickets.orderId, order.id));
    const open = openSeats(line, orderTickets, before.ticketIds).map((t) => t.id);
    if (open.length) {
      const chosen = [...new Set(ask.ticketIds)];
      if (!chosen.length) return { ok: false, error: "Choose the seats to refund." };
      if (chosen.some((id) => !open.includes(id)))
        return { ok: false, error: "One of those seats is not this line's, or is already refunded. Reload the page." };
      ticketIds = chosen;
      units = chosen.length;
    }
  }
  if (!Number.isInteger(units) || units < 1 || units > left)
    return { ok: false, error: `Refund from 1 to ${left} of ${line.displayName}.` };
  const amountCents = unitsRefundCents(line, before.units, units);
  if (amountCents > leftOfOrderCents)
    return {
      ok: false,
      error:
        leftOfOrderCents > 0
          ? `Only ${formatRand(leftOfOrderCents)} is left to refund on this order.`
          : "Nothing is left to refund on this order.",
    };
  return { ok: true, amountCents, row: { orderLineId: line.id, units, amountCents, ticketIds } };
}

/**
 * A line refund that went through (the webhook's transaction): its seats' tickets stop admitting, and
 * with "return to sale" its units go back to their stock key, where the waiting list's next pass finds
 * a freed seat. Null when the refund covers no line (a whole-amount refund).
 */
export async function settleLineRefund(
  tx: Tx,
  refund: typeof refunds.$inferSelect,
  now: Date,
): Promise<{ summary: string } | null> {
  const rows = await tx
    .select({ part: refundLines, line: orderLines })
    .from(refundLines)
    .innerJoin(orderLines, eq(orderLines.id, refundLines.orderLineId))
    .where(eq(refundLines.refundId, refund.id));
  if (!rows.length) return null;
  const words: string[] = [];
  for (const { part, line } of rows) {
    const what = `${part.units} × ${line.displayName}`;
    if (part.ticketIds?.length) {
      const voided = await tx
        .update(tickets)
        .set({ voided: true, voidedAt: now })
        .where(and(inArray(tickets.id, part.ticketIds), eq(tickets.voided, false)))
        .returning({ id: tickets.id });
      if (voided.length)
        await tx.insert(orderEvents).values({
          orderId: refund.orderId,
          at: now,
          kind: "tickets",
          summary: voided.length === 1 ? "1 ticket cancelled" : `${voided.length} tickets cancelled`,
          detail: { voided: voided.length },
        });
    }
    // A size's units go back to its own row (issue 44); a seat's to its option, across the workshop's sessions.
    const key = line.variantId
      ? variantStockKey(line.variantId)
      : line.catalogItemId
        ? catalogStockKey(line.catalogItemId)
        : line.ticketOptionId
          ? ticketStockKey(line.ticketOptionId)
          : null;
    const back = refund.restock && key ? await returnSomeUnits(tx, refund.orderId, key, part.units, now) : 0;
    words.push(back ? `${what}, back on sale` : what);
  }
  return { summary: ` for ${words.join("; ")}` };
}

/** Orders' line refunds, for tests and checks: the units each line has had refunded (succeeded or on the way). */
export async function refundedUnitsByLine(db: Database, orderId: string) {
  const map = await unitsReturned(db, orderId);
  return Object.fromEntries([...map].map(([id, v]) => [id, v.units]));
}
