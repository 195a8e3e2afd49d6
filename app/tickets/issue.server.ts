import { randomInt } from "node:crypto";
import { and, asc, eq, inArray, isNotNull, like } from "drizzle-orm";
import {
  eventSessions,
  events,
  orderEvents,
  orderLines,
  orders,
  stockHolds,
  ticketOptions,
  tickets,
} from "~/db/schema";
import type { Tx } from "~/db/client.server";
import { DEFAULT_SESSION } from "~/events/sessions.server";
import { newTicketCode } from "./codes";
import { sessionFromStockKey } from "~/stock/keys";
import { SHORT_CODE_ALPHABET, SHORT_CODE_LENGTH } from "./short-code";

export interface IssuedTicket {
  code: string;
  /** The door code, stored bare ("ABCDEFGH"); show it with formatShortCode. */
  shortCode: string;
  seatNumber: number;
  holderName: string;
  eventTitle: string;
  ticketType: string;
  location: string;
  startsAt: Date | null;
  endsAt: Date | null;
}

/** The tickets of an order with what the email and the ticket page show about each. */
export async function orderTickets(tx: Pick<Tx, "select">, orderId: string): Promise<IssuedTicket[]> {
  const rows = await tx
    .select({ ticket: tickets, event: events, option: ticketOptions })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .leftJoin(ticketOptions, eq(ticketOptions.id, tickets.ticketOptionId))
    .where(eq(tickets.orderId, orderId))
    .orderBy(asc(tickets.seatNumber));
  return rows.map(({ ticket, event, option }) => ({
    code: ticket.code,
    shortCode: ticket.shortCode,
    seatNumber: ticket.seatNumber,
    holderName: ticket.holderName,
    eventTitle: event.title,
    ticketType: option?.type ?? "Ticket",
    location: event.location,
    startsAt: ticket.sessionStartsAt,
    endsAt: ticket.sessionEndsAt,
  }));
}

/** An order's ticket lines, with their option and event: what `issueTickets` issues seats for. */
export function ticketLinesOf(tx: Tx, orderId: string) {
  return tx
    .select({ line: orderLines, option: ticketOptions, event: events })
    .from(orderLines)
    .innerJoin(ticketOptions, eq(ticketOptions.id, orderLines.ticketOptionId))
    .innerJoin(events, eq(events.id, ticketOptions.eventId))
    .where(and(eq(orderLines.orderId, orderId), isNotNull(orderLines.ticketOptionId)));
}
type TicketLine = Awaited<ReturnType<typeof ticketLinesOf>>[number];

/** What issuing reads of the order: the row's own type, since orders/ (above tickets/) passes it in. */
type TicketedOrder = Pick<typeof orders.$inferSelect, "id" | "orderType" | "customerFirstName" | "customerLastName">;

/**
 * One ticket per seat of a paid order's ticket lines (a ticket or workshop order, or a bag's), inside the payment's transaction. The
 * session is the one its seats were held for (the hold's stock key names it); a one-off event's is
 * the event's own date. Idempotent: an order that has tickets gets no more.
 */
export async function issueTickets(
  tx: Tx,
  order: TicketedOrder,
  now: Date,
  /** `ticketLinesOf(tx, order.id)`, when the caller read them already (with its first statement). */
  alreadyRead?: TicketLine[],
): Promise<IssuedTicket[]> {
  if (order.orderType === "membership") return [];
  // A bag's order of a product and seats is a "product" order with ticket lines: its lines decide.
  const lines = alreadyRead ?? (await ticketLinesOf(tx, order.id));
  if (!lines.length) return [];
  const existing = await tx.select({ id: tickets.id }).from(tickets).where(eq(tickets.orderId, order.id)).limit(1);
  if (existing.length) return orderTickets(tx, order.id);
  let seat = 0;
  const values: (typeof tickets.$inferInsert)[] = [];
  for (const { line, option, event } of lines) {
    const [hold] = await tx
      .select({ key: stockHolds.stockKey })
      .from(stockHolds)
      .where(and(eq(stockHolds.orderId, order.id), like(stockHolds.stockKey, `ticket:${option.id}:%`)))
      .limit(1);
    const sessionStart = hold ? sessionFromStockKey(hold.key) : null;
    const startsAt = sessionStart ?? event.startsAt;
    const endsAt = sessionStart ? await sessionEnd(tx, event.id, sessionStart) : event.endsAt;
    for (let i = 0; i < line.quantity; i++) {
      values.push({
        code: newTicketCode(),
        shortCode: "",
        orderId: order.id,
        eventId: event.id,
        ticketOptionId: option.id,
        seatNumber: ++seat,
        holderName: line.attendeeNames?.[i] || `${order.customerFirstName} ${order.customerLastName}`.trim(),
        sessionStartsAt: startsAt,
        sessionEndsAt: endsAt,
        createdAt: now,
      });
    }
  }
  if (!values.length) return [];
  await assignShortCodes(tx, values);
  await tx.insert(tickets).values(values);
  await tx.insert(orderEvents).values({
    orderId: order.id,
    at: now,
    kind: "tickets",
    summary: values.length === 1 ? "1 ticket issued" : `${values.length} tickets issued`,
    detail: { seats: values.length, sessionStartsAt: values[0]!.sessionStartsAt?.toISOString() ?? null },
  });
  return orderTickets(tx, order.id);
}

export const newShortCode = () =>
  Array.from({ length: SHORT_CODE_LENGTH }, () => SHORT_CODE_ALPHABET[randomInt(SHORT_CODE_ALPHABET.length)]).join("");

/**
 * A door code per new ticket, unique within its event: drawn at random (31^8, about 850 billion) and
 * drawn again where it meets one the event already has or one drawn here. Two payments for one event
 * drawing the same code at the same instant would meet the unique index; at these odds that is left to it.
 */
async function assignShortCodes(tx: Tx, values: (typeof tickets.$inferInsert)[]) {
  const takenInEvent = new Set<string>();
  const keyOf = (v: typeof tickets.$inferInsert) => `${v.eventId}|${v.shortCode}`;
  for (;;) {
    const drawn = new Set<string>();
    for (const value of values) {
      while (!value.shortCode || takenInEvent.has(keyOf(value)) || drawn.has(keyOf(value)))
        value.shortCode = newShortCode();
      drawn.add(keyOf(value));
    }
    const clashes = await tx
      .select({ eventId: tickets.eventId, shortCode: tickets.shortCode })
      .from(tickets)
      .where(
        and(
          inArray(tickets.eventId, [...new Set(values.map((v) => v.eventId))]),
          inArray(
            tickets.shortCode,
            values.map((v) => v.shortCode!),
          ),
        ),
      );
    const sameEvent = clashes.filter((c) => drawn.has(`${c.eventId}|${c.shortCode}`));
    if (!sameEvent.length) return;
    for (const c of sameEvent) takenInEvent.add(`${c.eventId}|${c.shortCode}`);
  }
}

/** The end of a session the owner set, or the default rule's three hours. */
async function sessionEnd(tx: Tx, eventId: string, startsAt: Date): Promise<Date> {
  const [row] = await tx
    .select({ endsAt: eventSessions.endsAt })
    .from(eventSessions)
    .where(and(eq(eventSessions.eventId, eventId), eq(eventSessions.startsAt, startsAt)))
    .limit(1);
  return row?.endsAt ?? new Date(startsAt.getTime() + DEFAULT_SESSION.hours * 3_600_000);
}

/** A refunded order's tickets stop admitting (call it in the refund's transaction); returns how many were voided. */
export async function voidOrderTickets(tx: Tx, orderId: string, now: Date): Promise<number> {
  const voided = await tx
    .update(tickets)
    .set({ voided: true, voidedAt: now })
    .where(and(eq(tickets.orderId, orderId), eq(tickets.voided, false)))
    .returning({ id: tickets.id });
  if (voided.length) {
    await tx.insert(orderEvents).values({
      orderId,
      at: now,
      kind: "tickets",
      summary: voided.length === 1 ? "1 ticket cancelled" : `${voided.length} tickets cancelled`,
      detail: { voided: voided.length },
    });
  }
  return voided.length;
}
