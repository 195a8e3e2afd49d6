import { and, asc, eq } from "drizzle-orm";
import { isPlausibleSlug } from "~/catalog/slug";
import type { Database } from "~/db/client.server";
import { events, ticketOptions } from "~/db/schema";
import { isPast } from "./event-phase";

export type EventRow = typeof events.$inferSelect;
export type TicketOptionRow = typeof ticketOptions.$inferSelect;

/** Every event the public may see (archived ones are kept for their orders only), in the owner's order. */
export async function listEvents(db: Database): Promise<EventRow[]> {
  return db.select().from(events).where(eq(events.archived, false)).orderBy(asc(events.sortOrder), asc(events.id));
}

/** The public events split by the clock: upcoming ones soonest first, then past ones latest first. */
export async function listEventsByPhase(db: Database, now: Date): Promise<{ upcoming: EventRow[]; past: EventRow[] }> {
  return splitByPhase(await listEvents(db), now);
}

/**
 * Dated events that have not ended come first, soonest first; undated ones (monthly, or a date to be
 * announced) follow in the owner's order; ended ones are past, the latest first.
 */
export function splitByPhase<T extends { startsAt: Date | null; endsAt: Date | null; sortOrder: number }>(
  rows: T[],
  now: Date,
) {
  const upcoming = rows.filter((e) => !isPast(e, now));
  const past = rows.filter((e) => isPast(e, now));
  const dated = upcoming.filter((e) => e.startsAt).sort((a, b) => a.startsAt!.getTime() - b.startsAt!.getTime());
  const undated = upcoming.filter((e) => !e.startsAt);
  past.sort((a, b) => (b.endsAt ?? b.startsAt)!.getTime() - (a.endsAt ?? a.startsAt)!.getTime());
  return { upcoming: [...dated, ...undated], past };
}

export async function findEvent(db: Database, id: string): Promise<EventRow | undefined> {
  if (!isPlausibleSlug(id)) return undefined;
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.id, id), eq(events.archived, false)))
    .limit(1);
  return row;
}

export async function listTicketOptions(db: Database, eventId: string): Promise<TicketOptionRow[]> {
  return db
    .select()
    .from(ticketOptions)
    .where(eq(ticketOptions.eventId, eventId))
    .orderBy(asc(ticketOptions.sortOrder), asc(ticketOptions.id));
}
