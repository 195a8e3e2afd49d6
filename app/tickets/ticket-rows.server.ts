import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { events, ticketOptions, tickets } from "~/db/schema";

/** Tickets with their event and ticket type: what every page that draws a ticket reads. Add the where. */
export function selectTicketsWithEvent(db: Pick<Database, "select">) {
  return db
    .select({ ticket: tickets, event: events, type: ticketOptions.type })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .leftJoin(ticketOptions, eq(ticketOptions.id, tickets.ticketOptionId));
}
