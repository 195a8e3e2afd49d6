import { and, asc, desc, eq, gte, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { contactSubmissions, events, members, memberSubscriptions, orders, ticketOptions } from "~/db/schema";
import { saleSession, seatCounts } from "~/events/seats.server";
import { renewingSoon } from "~/memberships/members-admin.server";
import { southAfricanDay } from "~/memberships/periods";
import { toPost } from "~/orders/orders-admin.server";
import type { TodoList } from "./todo";

/** How many of each job the dashboard names one by one; the link shows the rest. */
export const TODO_SHOWN = 3;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** Rows and how many there are, in one statement: the window counts every match before the limit. */
const total = sql<number>`count(*) over ()`.mapWith(Number);

/**
 * What needs the owner today, in the order she deals with it. A fixed number of small statements on
 * indexed filters, whatever the shop's size (no query per order, message or member); only this week's
 * events count their seats one event at a time, and a week holds a handful.
 */
export async function loadTodoList(db: Database, now: Date): Promise<TodoList> {
  const today = southAfricanDay(now);
  const [attention, posting, messages, renewing, week] = await Promise.all([
    db
      .select({
        id: orders.id,
        reference: orders.reference,
        itemName: orders.itemName,
        reason: orders.attentionReason,
        total,
      })
      .from(orders)
      .where(and(eq(orders.needsAttention, true), inArray(orders.status, ["paid", "partially_refunded"])))
      .orderBy(desc(orders.createdAt))
      .limit(TODO_SHOWN),
    db
      .select({
        id: orders.id,
        reference: orders.reference,
        itemName: orders.itemName,
        first: orders.customerFirstName,
        last: orders.customerLastName,
        total,
      })
      .from(orders)
      .where(toPost)
      .orderBy(asc(orders.createdAt))
      .limit(TODO_SHOWN),
    db
      .select({
        id: contactSubmissions.id,
        first: contactSubmissions.firstName,
        last: contactSubmissions.lastName,
        subject: contactSubmissions.subject,
        total,
      })
      .from(contactSubmissions)
      .where(isNull(contactSubmissions.answeredAt))
      .orderBy(asc(contactSubmissions.createdAt))
      .limit(TODO_SHOWN),
    db
      .select({
        id: members.id,
        name: members.name,
        paidUntil: members.paidUntil,
        status: members.status,
        // Her card subscription's charge did not come (memberships/card-renewals.server.ts).
        cardFailed:
          sql<boolean>`exists (select 1 from ${memberSubscriptions} where ${memberSubscriptions.memberId} = ${members.id}
          and ${memberSubscriptions.status} = 'active' and ${memberSubscriptions.cardFailedAt} is not null)`.mapWith(
            Boolean,
          ),
        total,
      })
      .from(members)
      .where(renewingSoon(today))
      .orderBy(asc(members.paidUntil), asc(members.id))
      .limit(TODO_SHOWN),
    weekEvents(db, now),
  ]);
  return {
    attention: { total: attention[0]?.total ?? 0, orders: attention.map(({ total: _, ...o }) => o) },
    toPost: {
      total: posting[0]?.total ?? 0,
      orders: posting.map((o) => ({
        id: o.id,
        reference: o.reference,
        itemName: o.itemName,
        customer: `${o.first} ${o.last}`,
      })),
    },
    messages: {
      total: messages[0]?.total ?? 0,
      messages: messages.map((m) => ({ id: m.id, name: `${m.first} ${m.last}`, subject: m.subject })),
    },
    members: { total: renewing[0]?.total ?? 0, members: renewing.map(({ total: _, ...m }) => m) },
    events: week,
  };
}

/** Events starting within the next 7 days (a monthly event by its next session), with seats sold of the seats there are. */
async function weekEvents(db: Database, now: Date): Promise<TodoList["events"]> {
  const end = new Date(now.getTime() + WEEK_MS);
  const rows = await db
    .select({ id: events.id, title: events.title, startsAt: events.startsAt, recurring: events.recurring })
    .from(events)
    .where(
      and(
        eq(events.archived, false),
        or(and(gte(events.startsAt, now), lt(events.startsAt, end)), eq(events.recurring, "monthly")),
      ),
    )
    .orderBy(asc(events.startsAt));
  if (!rows.length) return [];
  const options = await db
    .select({ id: ticketOptions.id, eventId: ticketOptions.eventId, capacity: ticketOptions.capacity })
    .from(ticketOptions)
    .where(
      inArray(
        ticketOptions.eventId,
        rows.map((r) => r.id),
      ),
    );
  const found = await Promise.all(
    rows.map(async (event) => {
      const session = await saleSession(db, event, now);
      const startsAt = session?.startsAt ?? event.startsAt;
      if (!startsAt || startsAt < now || startsAt >= end) return null;
      const own = options.filter((o) => o.eventId === event.id);
      const seats = await seatCounts(db, own, session, now);
      const sold = own.reduce((sum, o) => sum + (seats.get(o.id)?.sold ?? 0), 0);
      // Each option's seats are the session's count when the owner set one, else its own; an option
      // without any makes the total unknown ("12 sold").
      const each = own.map((o) => session?.capacity ?? o.capacity);
      const capacity = each.length && each.every((c) => c !== null) ? each.reduce((sum, c) => sum! + c!, 0) : null;
      return { id: event.id, title: event.title, startsAt: startsAt.toISOString(), sold, capacity };
    }),
  );
  return found.filter((e) => e !== null).sort((a, b) => a.startsAt.localeCompare(b.startsAt));
}
