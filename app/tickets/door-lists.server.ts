// What the door and the attendees page read: the events with tickets, each event's ticket list for the
// door's offline copy, its counts and conflicts, and the attendees list. Admitting is check-in.server.ts.
import { and, asc, desc, eq, gte, ilike, isNull, ne, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { checkIns, events, orders, ticketOptions, tickets } from "~/db/schema";
import type { DoorOtherTicket, DoorTicket } from "./door";

/** The events with tickets, and their sessions, for the door's picker. */
export async function doorEvents(db: Database) {
  const rows = await db
    .select({
      eventId: tickets.eventId,
      title: events.title,
      startsAt: tickets.sessionStartsAt,
      count: sql<number>`count(*)::int`,
    })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(eq(tickets.voided, false))
    .groupBy(tickets.eventId, events.title, tickets.sessionStartsAt)
    .orderBy(asc(tickets.sessionStartsAt), asc(events.title));
  return rows.map((r) => ({
    ...r,
    startsAt: r.startsAt?.toISOString() ?? null,
    key: `${r.eventId}|${r.startsAt?.toISOString() ?? ""}`,
  }));
}

/**
 * What the door downloads to answer offline as it would online: every ticket of the event (all its
 * sessions, refunded ones too, so a refusal can say why) with what the search matches (name, email,
 * order reference, door code), and the codes of other events still to come, so a ticket for another
 * event is named as such.
 */
export async function doorTicketList(
  db: Database,
  eventId: string,
  now: Date,
): Promise<{ tickets: DoorTicket[]; others: DoorOtherTicket[] }> {
  const rows = await db
    .select({
      code: tickets.code,
      shortCode: tickets.shortCode,
      name: tickets.holderName,
      email: orders.customerEmail,
      reference: orders.reference,
      type: ticketOptions.type,
      session: tickets.sessionStartsAt,
      checkedInAt: tickets.checkedInAt,
      checkedInDevice: tickets.checkedInDevice,
      voided: tickets.voided,
      voidedAt: tickets.voidedAt,
    })
    .from(tickets)
    .innerJoin(orders, eq(orders.id, tickets.orderId))
    .leftJoin(ticketOptions, eq(ticketOptions.id, tickets.ticketOptionId))
    .where(eq(tickets.eventId, eventId))
    .orderBy(asc(tickets.holderName), asc(tickets.seatNumber));
  const recent = new Date(now.getTime() - 24 * 3_600_000);
  const others = await db
    .select({ code: tickets.code, shortCode: tickets.shortCode, eventTitle: events.title })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(and(ne(tickets.eventId, eventId), or(isNull(tickets.sessionEndsAt), gte(tickets.sessionEndsAt, recent))))
    .limit(5000);
  return {
    tickets: rows.map(({ voided, ...r }) => ({
      ...r,
      type: r.type ?? "Ticket",
      session: r.session?.toISOString() ?? null,
      checkedInAt: r.checkedInAt?.toISOString() ?? null,
      voidedAt: voided ? (r.voidedAt ?? now).toISOString() : null,
    })),
    others,
  };
}

/** The chosen session's "23 of 40 checked in" (refunded tickets are not counted). */
export async function doorCounts(db: Database, eventId: string, sessionStartsAt: string | null) {
  const start = sessionStartsAt ? new Date(sessionStartsAt) : null;
  const [row] = await db
    .select({ total: sql<number>`count(*)::int`, checkedIn: sql<number>`count(${tickets.checkedInAt})::int` })
    .from(tickets)
    .where(
      and(
        eq(tickets.eventId, eventId),
        eq(tickets.voided, false),
        start && !Number.isNaN(start.getTime()) ? eq(tickets.sessionStartsAt, start) : isNull(tickets.sessionStartsAt),
      ),
    );
  return { checkedIn: row?.checkedIn ?? 0, total: row?.total ?? 0 };
}

/** Tickets admitted offline on two devices: the owner decides what happened. */
export async function checkInConflicts(db: Database, eventId?: string) {
  const rows = await db
    .select({
      id: checkIns.id,
      code: checkIns.code,
      deviceId: checkIns.deviceId,
      scannedAt: checkIns.scannedAt,
      holderName: tickets.holderName,
      firstAt: tickets.checkedInAt,
      firstDevice: tickets.checkedInDevice,
    })
    .from(checkIns)
    .innerJoin(tickets, eq(tickets.id, checkIns.ticketId))
    .where(and(eq(checkIns.outcome, "conflict"), eventId ? eq(tickets.eventId, eventId) : undefined))
    .orderBy(desc(checkIns.id))
    .limit(100);
  return rows.map((r) => ({ ...r, scannedAt: r.scannedAt.toISOString(), firstAt: r.firstAt?.toISOString() ?? null }));
}

export const ATTENDEES_PAGE_SIZE = 100;

/** An event's attendees: ticket holders with the buyer's contact details, searchable. */
export async function listAttendees(db: Database, eventId: string, q = "", limit: number | null = ATTENDEES_PAGE_SIZE) {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const query = db
    .select({
      code: tickets.code,
      seatNumber: tickets.seatNumber,
      name: tickets.holderName,
      email: orders.customerEmail,
      phone: orders.customerPhone,
      reference: orders.reference,
      ticketType: ticketOptions.type,
      sessionStartsAt: tickets.sessionStartsAt,
      checkedInAt: tickets.checkedInAt,
      voided: tickets.voided,
    })
    .from(tickets)
    .innerJoin(orders, eq(orders.id, tickets.orderId))
    .leftJoin(ticketOptions, eq(ticketOptions.id, tickets.ticketOptionId))
    .where(
      and(
        eq(tickets.eventId, eventId),
        q
          ? or(
              ilike(tickets.holderName, pattern),
              ilike(orders.customerEmail, pattern),
              ilike(orders.customerPhone, pattern),
              ilike(tickets.code, pattern),
              ilike(orders.reference, pattern),
            )
          : undefined,
      ),
    )
    .orderBy(asc(tickets.sessionStartsAt), asc(tickets.holderName), asc(tickets.seatNumber));
  const rows = await (limit === null ? query : query.limit(limit));
  return rows.map((r) => ({
    ...r,
    ticketType: r.ticketType ?? "Ticket",
    sessionStartsAt: r.sessionStartsAt?.toISOString() ?? null,
    checkedInAt: r.checkedInAt?.toISOString() ?? null,
  }));
}
