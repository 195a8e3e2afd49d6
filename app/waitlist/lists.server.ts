import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { events, ticketOptions, waitlistEntries } from "~/db/schema";
import { saleSession, seatCounts, seatKey } from "~/events/seats.server";
import { describeSession } from "~/events/sessions.server";
import { ticketAvailability } from "~/events/ticket-availability";
import type { JoinWaitlistInput } from "./join-schema";

/** What a waiting list is for: one option's seats, of the session on sale now for a monthly event. */
export interface WaitlistTarget {
  optionId: number;
  eventId: string;
  /** "Sip & Style - General" or the workshop's title, as checkout names it. */
  itemName: string;
  /** The session's day and time, for a monthly event. */
  sessionText: string | null;
  stockKey: string;
  priceCents: number;
  /** Whether a visitor may join now: on sale, counted, and every seat sold or held. */
  joinable: boolean;
  /** The event's page, where seats can be bought again. */
  pagePath: string;
}

const isId = (value: string) => /^[1-9][0-9]{0,8}$/.test(value);

/** The list of an option as the event page sells it now, or null for an option that is not shown. */
export async function findWaitlistTarget(db: Database, optionId: string, now: Date): Promise<WaitlistTarget | null> {
  if (!isId(optionId)) return null;
  const [row] = await db
    .select({ event: events, option: ticketOptions })
    .from(ticketOptions)
    .innerJoin(events, eq(events.id, ticketOptions.eventId))
    .where(and(eq(ticketOptions.id, Number(optionId)), eq(events.archived, false)))
    .limit(1);
  if (!row || !row.event.ticketsOnSale) return null;
  const { event, option } = row;
  const session = await saleSession(db, event, now);
  const count = (await seatCounts(db, [option], session, now)).get(option.id);
  const onSale = ticketAvailability(option, event, now).status === "available";
  const recurring = event.recurring === "monthly";
  return {
    optionId: option.id,
    eventId: event.id,
    itemName: recurring ? event.title : `${event.title} - ${option.type}`,
    sessionText: session ? describeSession(session.startsAt, null) : null,
    stockKey: seatKey(option.id, session),
    priceCents: option.priceCents,
    joinable: onSale && count?.left === 0,
    pagePath: event.id === "tablecloth-workshop" ? "/workshop/tablecloth-skirt" : `/tickets/${event.id}`,
  };
}

export type JoinResult = { ok: true } | { ok: false; fieldErrors: Record<string, string> };

/**
 * Puts a person at the end of the list. The same address joins a list once while it waits or holds
 * an offer: the partial unique index decides, so two joins at the same moment cannot both get in.
 */
export async function joinWaitlist(
  db: Database,
  target: WaitlistTarget,
  input: JoinWaitlistInput,
  now: Date,
): Promise<JoinResult> {
  const email = input.email.toLowerCase();
  const inserted = await db
    .insert(waitlistEntries)
    .values({
      stockKey: target.stockKey,
      ticketOptionId: target.optionId,
      email,
      name: input.name,
      seats: input.seats,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: waitlistEntries.id });
  if (inserted.length) return { ok: true };
  return {
    ok: false,
    fieldErrors: {
      email: `${input.email} is already on the waiting list for ${target.itemName}. We will email that address when seats free up.`,
    },
  };
}
