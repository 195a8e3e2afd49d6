import { asc, eq } from "drizzle-orm";
import { isPlausibleSlug } from "~/catalog/slug";
import type { Database } from "~/db/client.server";
import { events, ticketOptions } from "~/db/schema";

export type EventRow = typeof events.$inferSelect;
export type TicketOptionRow = typeof ticketOptions.$inferSelect;

export async function listEvents(db: Database): Promise<EventRow[]> {
  return db.select().from(events).orderBy(asc(events.sortOrder));
}

export async function findEvent(db: Database, id: string): Promise<EventRow | undefined> {
  if (!isPlausibleSlug(id)) return undefined;
  const [row] = await db.select().from(events).where(eq(events.id, id)).limit(1);
  return row;
}

export async function listTicketOptions(db: Database, eventId: string): Promise<TicketOptionRow[]> {
  return db.select().from(ticketOptions).where(eq(ticketOptions.eventId, eventId)).orderBy(asc(ticketOptions.sortOrder));
}
