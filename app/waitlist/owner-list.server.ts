import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { recordAudit } from "~/admin/audit.server";
import type { Database } from "~/db/client.server";
import { stockHolds, ticketOptions, waitlistEntries } from "~/db/schema";
import { describeSession } from "~/events/sessions.server";
import { lockStockKey } from "~/stock/holds.server";
import { sessionFromStockKey } from "~/stock/keys";
import { describeOfferDeadline } from "./offer-email.server";
import { offerPassForKey } from "./offers.server";

export interface OwnerListEntry {
  id: number;
  name: string;
  email: string;
  seats: number;
  /** "Waiting" or "Offer until Saturday, 5 December at 14:00". */
  state: string;
  offered: boolean;
}

export interface OwnerList {
  stockKey: string;
  /** The option's type, with the session's day for a monthly event. */
  title: string;
  people: number;
  seats: number;
  valueCents: number;
  entries: OwnerListEntry[];
}

/** The event's lists as the owner reads them: per option and session, first in line first. */
export async function eventWaitingLists(db: Database, eventId: string): Promise<OwnerList[]> {
  const rows = await db
    .select({ entry: waitlistEntries, type: ticketOptions.type, priceCents: ticketOptions.priceCents })
    .from(waitlistEntries)
    .innerJoin(ticketOptions, eq(ticketOptions.id, waitlistEntries.ticketOptionId))
    .where(and(eq(ticketOptions.eventId, eventId), inArray(waitlistEntries.status, ["waiting", "offered"])))
    .orderBy(asc(ticketOptions.sortOrder), asc(waitlistEntries.stockKey), asc(waitlistEntries.id));
  const lists = new Map<string, OwnerList>();
  for (const { entry, type, priceCents } of rows) {
    let list = lists.get(entry.stockKey);
    if (!list) {
      const session = sessionFromStockKey(entry.stockKey);
      list = {
        stockKey: entry.stockKey,
        title: session ? `${type}, ${describeSession(session, null)}` : type,
        people: 0,
        seats: 0,
        valueCents: 0,
        entries: [],
      };
      lists.set(entry.stockKey, list);
    }
    list.people++;
    list.seats += entry.seats;
    list.valueCents += entry.seats * priceCents;
    const offered = entry.status === "offered";
    list.entries.push({
      id: entry.id,
      name: entry.name,
      email: entry.email,
      seats: entry.seats,
      offered,
      state: offered && entry.offerExpiresAt ? `Offer until ${describeOfferDeadline(entry.offerExpiresAt)}` : "Waiting",
    });
  }
  return [...lists.values()];
}

export class WaitlistEditError extends Error {}

/**
 * Takes someone off a list. Seats held for their offer are released and, in the same transaction and
 * under the same lock, offered to the next person whose request fits.
 */
export async function removeWaitlistEntry(
  db: Database,
  eventId: string,
  entryId: number,
  now: Date,
  siteUrl: string,
): Promise<string> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ entry: waitlistEntries })
      .from(waitlistEntries)
      .innerJoin(ticketOptions, eq(ticketOptions.id, waitlistEntries.ticketOptionId))
      .where(and(eq(waitlistEntries.id, entryId), eq(ticketOptions.eventId, eventId)))
      .limit(1);
    if (!found) throw new WaitlistEditError("That person is no longer on this event's waiting list.");
    // Under the stock key's lock, like every change to the seats it counts.
    await lockStockKey(tx, found.entry.stockKey);
    const [removed] = await tx
      .update(waitlistEntries)
      .set({ status: "removed" })
      .where(and(eq(waitlistEntries.id, entryId), inArray(waitlistEntries.status, ["waiting", "offered"])))
      .returning();
    if (!removed) throw new WaitlistEditError("That person is no longer on this event's waiting list.");
    await tx
      .update(stockHolds)
      .set({ status: "released" })
      .where(and(eq(stockHolds.waitlistEntryId, entryId), isNull(stockHolds.orderId), eq(stockHolds.status, "held")));
    const summary = `Removed ${removed.name} (${removed.seats === 1 ? "1 seat" : `${removed.seats} seats`}) from the waiting list`;
    await recordAudit(tx, { action: "waitlist.remove", entity: "waitlist", entityId: entryId, summary }, now);
    await offerPassForKey(tx, removed.stockKey, now, siteUrl);
    return summary;
  });
}
