import { asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { events, ticketOptions } from "~/db/schema";
import { describeSession, describeSessionDay, nextSession } from "~/events/sessions.server";
import { ticketAvailability } from "~/events/ticket-availability";
import { heldUnits, soldSeats, unitsAvailable } from "~/stock/availability.server";
import { sessionStockKey, ticketStockKey } from "~/stock/keys";
import type { Sellable, SellableLookup } from "./sellable-lookup";

/**
 * Tickets arrive as "{event title} - {option type}"; the workshop button sends the event title alone
 * (its single option). A recurring event's seats are counted per session: the next one the owner set,
 * or the default first Saturday of the coming month.
 */
export type TicketRow = { event: TicketEvent; option: typeof ticketOptions.$inferSelect };

/**
 * The columns of an event that selling its tickets (and drawing them in a bag) reads; not its long
 * texts and lists, which every ticket checkout and bag view otherwise read, copied between threads
 * and threw away.
 */
export const ticketEventColumns = {
  id: events.id,
  title: events.title,
  startsAt: events.startsAt,
  recurring: events.recurring,
  ticketsOnSale: events.ticketsOnSale,
  archived: events.archived,
  images: events.images,
  imageAlts: events.imageAlts,
};
export type TicketEvent = { [K in keyof typeof ticketEventColumns]: (typeof events.$inferSelect)[K] };

/** The ticket a checkout query names: "{event title} - {option type}", or the workshop's title alone. */
export function ticketNamed(type: string, name: string) {
  const wanted = name.toLowerCase();
  return (rows: TicketRow[]) =>
    rows.find((r) => `${r.event.title} - ${r.option.type}`.toLowerCase() === wanted) ??
    (type === "workshop" ? rows.find((r) => r.event.title.toLowerCase() === wanted) : undefined);
}

export async function findTicket(
  db: Database,
  pick: (rows: TicketRow[]) => TicketRow | undefined,
  now: Date,
): Promise<SellableLookup> {
  const rows = await db
    .select({ event: ticketEventColumns, option: ticketOptions })
    .from(ticketOptions)
    .innerJoin(events, eq(events.id, ticketOptions.eventId))
    // An archived event is kept for its orders only: it is not sold.
    .where(eq(events.archived, false))
    .orderBy(asc(events.sortOrder), asc(ticketOptions.sortOrder));
  const match = pick(rows);
  if (!match) return { ok: false, reason: "We could not find that event ticket." };
  const plan = ticketPlan(match, now);
  if (!plan.ok) return plan;
  const session = plan.recurring ? await nextSession(db, match.event.id, now) : null;
  const stock = ticketStock(match, session);
  const sold = stock ? await soldSeats(db, stock.key) : 0;
  const held = stock ? await heldUnits(db, [stock.key], now) : new Map<string, number>();
  return ticketLookup(match, session, stock, sold, held);
}

export type Session = Awaited<ReturnType<typeof nextSession>>;

/** Whether a ticket is on sale now, before its seats are counted. */
export function ticketPlan(
  { event, option }: TicketRow,
  now: Date,
): { ok: true; recurring: boolean } | { ok: false; reason: string } {
  if (!event.ticketsOnSale) return { ok: false, reason: "Tickets for this event are not on sale yet." };
  const availability = ticketAvailability(option, event, now);
  if (availability.status === "not-yet")
    return { ok: false, reason: `This ticket is not on sale yet: ${availability.label}.` };
  if (availability.status === "closed") return { ok: false, reason: "Sales for this ticket have closed." };
  if (availability.status === "event-over") return { ok: false, reason: "This event has already taken place." };
  return { ok: true, recurring: event.recurring === "monthly" };
}

/** The seats' key and capacity: the session's for a recurring event, else the option's; null when uncounted. */
export function ticketStock({ option }: TicketRow, session: Session | null) {
  const capacity = session?.capacity ?? option.capacity;
  if (capacity === null) return null;
  const key = session ? sessionStockKey(option.id, session.startsAt) : ticketStockKey(option.id);
  const soldOutReason = session
    ? `The workshop on ${describeSessionDay(session.startsAt)} is full.`
    : "This ticket is sold out.";
  return { key, capacity, soldOutReason };
}

/** `findTicket` once the seats sold and held of its key are known. */
export function ticketLookup(
  { event, option }: TicketRow,
  session: Session | null,
  seats: ReturnType<typeof ticketStock>,
  sold: number,
  held: Map<string, number>,
): SellableLookup {
  let stock: Sellable["stock"] = null;
  let available: number | null = null;
  if (seats) {
    stock = { key: seats.key, limit: seats.capacity - sold, soldOutReason: seats.soldOutReason };
    available = unitsAvailable(stock.limit, held.get(seats.key) ?? 0);
    if (available === 0) return { ok: false, reason: seats.soldOutReason };
  }
  const isWorkshop = session !== null;
  return {
    ok: true,
    item: {
      orderType: isWorkshop ? "workshop" : "ticket",
      displayName: isWorkshop ? event.title : `${event.title} - ${option.type}`,
      amountCents: option.priceCents,
      description: session
        ? `${option.description} (${describeSession(session.startsAt, session.endsAt)})`
        : option.description,
      stock,
      available,
      line: { ticketOptionId: option.id },
    },
  };
}
