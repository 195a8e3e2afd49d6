import { and, asc, count, eq, inArray } from "drizzle-orm";
import { recordAudit } from "~/admin/audit.server";
import type { Database } from "~/db/client.server";
import { events, orderLines, ticketOptions } from "~/db/schema";
import { formatRand } from "~/lib/money";
import { eventAuditView } from "./event-save.server";
import type { EventRow } from "./events.server";
import { splitByPhase } from "./events.server";
import { saleSession, seatCounts } from "./seats.server";

/** The admin's list: every event not archived, upcoming first (soonest first), then past; seats per option. */
export async function listEventsForAdmin(db: Database, now: Date) {
  const rows = await db
    .select()
    .from(events)
    .where(eq(events.archived, false))
    .orderBy(asc(events.sortOrder), asc(events.id));
  const options = rows.length
    ? await db
        .select()
        .from(ticketOptions)
        .where(
          inArray(
            ticketOptions.eventId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(ticketOptions.sortOrder), asc(ticketOptions.id))
    : [];
  const view = async (e: EventRow) => {
    const own = options.filter((o) => o.eventId === e.id);
    const seats = await seatCounts(db, own, await saleSession(db, e, now), now);
    return {
      id: e.id,
      title: e.title,
      dates: e.dates,
      timeText: e.timeText,
      demo: e.demo,
      image: e.images[0] ?? null,
      imageAlt: e.imageAlts[0] || e.title,
      options: own.map((o) => ({
        id: o.id,
        type: o.type,
        price: formatRand(o.priceCents),
        ...(seats.get(o.id) ?? { sold: 0, held: 0, left: o.capacity }),
        // The option's own capacity: the admin list edits that one (a session's count is on its page).
        capacity: o.capacity,
      })),
    };
  };
  const { upcoming, past } = splitByPhase(rows, now);
  return { upcoming: await Promise.all(upcoming.map(view)), past: await Promise.all(past.map(view)) };
}

export async function findEventForAdmin(db: Database, id: string) {
  if (!/^[a-z0-9][a-z0-9_-]{0,199}$/.test(id)) return null;
  const [event] = await db
    .select()
    .from(events)
    .where(and(eq(events.id, id), eq(events.archived, false)))
    .limit(1);
  if (!event) return null;
  const options = await db
    .select()
    .from(ticketOptions)
    .where(eq(ticketOptions.eventId, id))
    .orderBy(asc(ticketOptions.sortOrder), asc(ticketOptions.id));
  return { event, options };
}

/**
 * Removes an event. One with orders for any of its tickets is archived instead: hidden from every
 * public page and from checkout, kept for its orders; one without is deleted with its options.
 */
export async function removeEvent(db: Database, id: string, now: Date): Promise<"deleted" | "archived" | "missing"> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(events)
      .where(and(eq(events.id, id), eq(events.archived, false)))
      .for("update");
    if (!row) return "missing" as const;
    const [{ n }] = await tx
      .select({ n: count() })
      .from(orderLines)
      .innerJoin(ticketOptions, eq(ticketOptions.id, orderLines.ticketOptionId))
      .where(eq(ticketOptions.eventId, id));
    if (n > 0) {
      await tx.update(events).set({ archived: true, updatedAt: now }).where(eq(events.id, id));
      await recordAudit(
        tx,
        {
          action: "event.archive",
          entity: "event",
          entityId: id,
          summary: `Archived ${row.title} (kept for its ${n} ${n === 1 ? "order" : "orders"})`,
          before: eventAuditView(row),
        },
        now,
      );
      return "archived" as const;
    }
    await tx.delete(events).where(eq(events.id, id));
    await recordAudit(
      tx,
      {
        action: "event.delete",
        entity: "event",
        entityId: id,
        summary: `Deleted ${row.title}`,
        before: eventAuditView(row),
      },
      now,
    );
    return "deleted" as const;
  });
}
