import { and, asc, eq, gt, sql } from "drizzle-orm";
import { recordAudit } from "~/admin/audit.server";
import type { Database } from "~/db/client.server";
import { eventSessions, tickets } from "~/db/schema";
import type { SessionInput } from "./session-schema";

/** South Africa keeps UTC+2 all year (no daylight saving), so a wall-clock time there is a fixed offset. */
const SA_OFFSET_HOURS = 2;
export const DEFAULT_SESSION = { startHour: 10, hours: 3 } as const;

export interface EventSession {
  startsAt: Date;
  endsAt: Date;
  /** Seats for this session; null means the ticket option's capacity. */
  capacity: number | null;
  /** true when the owner set no dates and the default rule chose this one. */
  isDefault: boolean;
}

/** Year and month (1-12) of an instant in South African time. */
function saYearMonth(now: Date): { year: number; month: number } {
  const sa = new Date(now.getTime() + SA_OFFSET_HOURS * 3_600_000);
  return { year: sa.getUTCFullYear(), month: sa.getUTCMonth() + 1 };
}

/** An instant from a South African wall-clock date and hour. */
export function saTime(year: number, month: number, day: number, hour: number, minute = 0): Date {
  return new Date(Date.UTC(year, month - 1, day, hour - SA_OFFSET_HOURS, minute));
}

/** The default rule: the first Saturday of the month after `now`'s (South African) month, 10:00 to 13:00. */
export function defaultWorkshopSession(now: Date): EventSession {
  const { year, month } = saYearMonth(now);
  const nextYear = month === 12 ? year + 1 : year;
  const nextMonth = month === 12 ? 1 : month + 1;
  const weekdayOfFirst = new Date(Date.UTC(nextYear, nextMonth - 1, 1)).getUTCDay();
  const firstSaturday = 1 + ((6 - weekdayOfFirst + 7) % 7);
  const startsAt = saTime(nextYear, nextMonth, firstSaturday, DEFAULT_SESSION.startHour);
  return {
    startsAt,
    endsAt: new Date(startsAt.getTime() + DEFAULT_SESSION.hours * 3_600_000),
    capacity: null,
    isDefault: true,
  };
}

/** The owner's future sessions of an event, soonest first, or the default one when she set none. */
export async function upcomingSessions(
  db: Pick<Database, "select">,
  eventId: string,
  now: Date,
): Promise<EventSession[]> {
  const rows = await db
    .select()
    .from(eventSessions)
    .where(and(eq(eventSessions.eventId, eventId), gt(eventSessions.startsAt, now)))
    .orderBy(asc(eventSessions.startsAt));
  if (!rows.length) return [defaultWorkshopSession(now)];
  return rows.map((r) => ({ startsAt: r.startsAt, endsAt: r.endsAt, capacity: r.capacity, isDefault: false }));
}

/** The session a buyer joins today: the next one. */
export async function nextSession(db: Pick<Database, "select">, eventId: string, now: Date): Promise<EventSession> {
  return (await upcomingSessions(db, eventId, now))[0]!;
}

const sessionDay = new Intl.DateTimeFormat("en-ZA", {
  timeZone: "Africa/Johannesburg",
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
});
const sessionClock = new Intl.DateTimeFormat("en-ZA", {
  timeZone: "Africa/Johannesburg",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** "Saturday, 4 October 2025, 10:00 to 13:00" in South African time. */
export function describeSession(startsAt: Date, endsAt: Date | null): string {
  const day = sessionDay.format(startsAt);
  return endsAt
    ? `${day}, ${sessionClock.format(startsAt)} to ${sessionClock.format(endsAt)}`
    : `${day}, ${sessionClock.format(startsAt)}`;
}

/** "Saturday, 4 October 2025" in South African time. */
export const describeSessionDay = (at: Date) => sessionDay.format(at);
export const formatSessionClock = (at: Date) => sessionClock.format(at);

export class SessionEditError extends Error {}

/** The owner's sessions of an event with the tickets sold for each, soonest first. */
export async function listEventSessions(db: Database, eventId: string) {
  const rows = await db
    .select({
      id: eventSessions.id,
      startsAt: eventSessions.startsAt,
      endsAt: eventSessions.endsAt,
      capacity: eventSessions.capacity,
      sold: sql<number>`(select count(*)::int from tickets t
        where t.event_id = ${eventSessions.eventId} and t.session_starts_at = ${eventSessions.startsAt} and not t.voided)`,
    })
    .from(eventSessions)
    .where(eq(eventSessions.eventId, eventId))
    .orderBy(asc(eventSessions.startsAt));
  return rows.map((r) => ({ ...r, label: describeSession(r.startsAt, r.endsAt), startsAt: r.startsAt.toISOString() }));
}

/** Adds a session; refused when one starts at the same time or it is in the past. */
export async function addEventSession(db: Database, eventId: string, input: SessionInput, now: Date) {
  const [y, m, d] = input.date.split("-").map(Number) as [number, number, number];
  const [sh, sm] = input.start.split(":").map(Number) as [number, number];
  const [eh, em] = input.end.split(":").map(Number) as [number, number];
  const startsAt = saTime(y, m, d, sh, sm);
  const endsAt = saTime(y, m, d, eh, em);
  if (startsAt <= now) throw new SessionEditError("Choose a date and time in the future.");
  const capacity = input.capacity === "" ? null : Number(input.capacity);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(eventSessions)
      .values({ eventId, startsAt, endsAt, capacity })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new SessionEditError("A session already starts at that time.");
    const label = describeSession(startsAt, endsAt);
    await recordAudit(
      tx,
      {
        action: "event.session.add",
        entity: "event",
        entityId: eventId,
        summary: `Added session ${label}`,
        before: null,
        after: { startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString(), capacity },
      },
      now,
    );
    return label;
  });
}

/** Removes a session that has no tickets (a sold seat keeps its session). */
export async function removeEventSession(db: Database, eventId: string, sessionId: number, now: Date) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(eventSessions)
      .where(and(eq(eventSessions.id, sessionId), eq(eventSessions.eventId, eventId)))
      .for("update");
    if (!row) throw new SessionEditError("That session no longer exists.");
    const [sold] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(tickets)
      .where(and(eq(tickets.eventId, eventId), eq(tickets.sessionStartsAt, row.startsAt)));
    if (Number(sold?.n ?? 0) > 0) throw new SessionEditError("This session has tickets, so it cannot be removed.");
    const held = await tx.execute(
      sql`select 1 from stock_holds
        where stock_key like ${`ticket:%:${row.startsAt.toISOString()}`} and status = 'held' and expires_at > ${now} limit 1`,
    );
    if ((held as unknown as { rows: unknown[] }).rows.length)
      throw new SessionEditError("Someone is paying for a seat in this session right now; try again in a few minutes.");
    await tx.delete(eventSessions).where(eq(eventSessions.id, row.id));
    const label = describeSession(row.startsAt, row.endsAt);
    await recordAudit(
      tx,
      {
        action: "event.session.remove",
        entity: "event",
        entityId: eventId,
        summary: `Removed session ${label}`,
        before: { startsAt: row.startsAt.toISOString(), endsAt: row.endsAt.toISOString(), capacity: row.capacity },
        after: null,
      },
      now,
    );
    return label;
  });
}
