import { and, asc, eq, gt } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { eventSessions, ticketOptions } from "~/db/schema";

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
  return { startsAt, endsAt: new Date(startsAt.getTime() + DEFAULT_SESSION.hours * 3_600_000), capacity: null, isDefault: true };
}

/** The owner's future sessions of an event, soonest first, or the default one when she set none. */
export async function upcomingSessions(db: Pick<Database, "select">, eventId: string, now: Date): Promise<EventSession[]> {
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

/** "ticket:{optionId}:{sessionStartIso}": seats are counted per session. */
export const sessionStockKey = (optionId: number, startsAt: Date) => `ticket:${optionId}:${startsAt.toISOString()}`;

/** The session start named by a stock key, or null for a key without one. */
export function sessionFromStockKey(key: string): Date | null {
  const rest = key.split(":").slice(2).join(":");
  if (!rest) return null;
  const at = new Date(rest);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The owner's capacity for the session a stock key names, when she set one. */
export async function sessionCapacityForKey(db: Pick<Database, "select">, key: string): Promise<number | null> {
  const [kind, id] = key.split(":");
  const startsAt = sessionFromStockKey(key);
  if (kind !== "ticket" || !startsAt) return null;
  const [row] = await db
    .select({ capacity: eventSessions.capacity })
    .from(eventSessions)
    .innerJoin(ticketOptions, eq(ticketOptions.eventId, eventSessions.eventId))
    .where(and(eq(ticketOptions.id, Number(id)), eq(eventSessions.startsAt, startsAt)))
    .limit(1);
  return row?.capacity ?? null;
}

const sessionDay = new Intl.DateTimeFormat("en-ZA", { timeZone: "Africa/Johannesburg", weekday: "long", day: "numeric", month: "long", year: "numeric" });
const sessionClock = new Intl.DateTimeFormat("en-ZA", { timeZone: "Africa/Johannesburg", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** "Saturday, 4 October 2025, 10:00 to 13:00" in South African time. */
export function describeSession(startsAt: Date, endsAt: Date | null): string {
  const day = sessionDay.format(startsAt);
  return endsAt ? `${day}, ${sessionClock.format(startsAt)} to ${sessionClock.format(endsAt)}` : `${day}, ${sessionClock.format(startsAt)}`;
}

/** "Saturday, 4 October 2025" in South African time. */
export const describeSessionDay = (at: Date) => sessionDay.format(at);
export const formatSessionClock = (at: Date) => sessionClock.format(at);
