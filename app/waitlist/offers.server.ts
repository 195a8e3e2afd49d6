import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, inArray, isNull, lte, ne, sql } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { events, stockHolds, ticketOptions, waitlistEntries } from "~/db/schema";
import { shopContact } from "~/email/shop-contact.server";
import { queueEmail } from "~/email/outbox.server";
import { describeSession, describeSessionDay } from "~/events/sessions.server";
import { ticketAvailability } from "~/events/ticket-availability";
import { heldUnits, sessionCapacityForKey, soldSeats } from "~/stock/availability.server";
import { lockStockKey } from "~/stock/holds.server";
import { sessionFromStockKey } from "~/stock/keys";
import { lapsedEmail, offerEmail } from "./offer-email.server";
import { offerWindowHours } from "./offer-window.server";

type EntryRow = typeof waitlistEntries.$inferSelect;

/** What a list's stock key sells: its option, its event, and how checkout names and describes it. */
async function listItem(db: Pick<Database, "select">, key: string) {
  const optionId = Number(key.split(":")[1]);
  if (!Number.isInteger(optionId)) return null;
  const [row] = await db
    .select({ event: events, option: ticketOptions })
    .from(ticketOptions)
    .innerJoin(events, eq(events.id, ticketOptions.eventId))
    .where(eq(ticketOptions.id, optionId))
    .limit(1);
  if (!row) return null;
  const { event, option } = row;
  const session = sessionFromStockKey(key);
  const recurring = event.recurring === "monthly";
  return {
    event,
    option,
    session,
    orderType: recurring ? ("workshop" as const) : ("ticket" as const),
    itemName: recurring ? event.title : `${event.title} - ${option.type}`,
    sessionText: session ? describeSession(session, null) : null,
    soldOutReason: session ? `The workshop on ${describeSessionDay(session)} is full.` : "This ticket is sold out.",
  };
}

/** Seats of a key nobody has bought or holds (checkouts and offers alike); null when the option is not counted. */
async function freeSeats(tx: Tx, key: string, capacity: number | null, now: Date): Promise<number | null> {
  const seats = (await sessionCapacityForKey(tx, key)) ?? capacity;
  if (seats === null) return null;
  return seats - (await soldSeats(tx, key)) - ((await heldUnits(tx, [key], now)).get(key) ?? 0);
}

export const offerLink = (siteUrl: string, token: string) =>
  `${siteUrl.replace(/\/$/, "")}/waiting-list/offer/${token}`;

/**
 * One pass over one list, under its stock key's lock and in the caller's transaction (decision 122):
 * offers that ran out lapse (their hold is released, the person is told), then the seats free now go
 * to the first people in line whose request fits, each held for the offer window with an email that
 * says until when. Run twice at once (two instances), the second waits for the lock and finds the
 * seats held: each freed seat is offered once.
 */
export async function offerPassForKey(tx: Tx, key: string, now: Date, siteUrl: string): Promise<number> {
  await lockStockKey(tx, key);
  const lapsed = await tx
    .update(waitlistEntries)
    .set({ status: "lapsed" })
    .where(
      and(
        eq(waitlistEntries.stockKey, key),
        eq(waitlistEntries.status, "offered"),
        lte(waitlistEntries.offerExpiresAt, now),
      ),
    )
    .returning();
  const item = await listItem(tx, key);
  const contact = lapsed.length || item ? await shopContact(tx) : null;
  if (lapsed.length) {
    await tx
      .update(stockHolds)
      .set({ status: "released" })
      .where(
        and(
          inArray(
            stockHolds.waitlistEntryId,
            lapsed.map((e) => e.id),
          ),
          isNull(stockHolds.orderId),
          eq(stockHolds.status, "held"),
        ),
      );
    for (const entry of lapsed) await queueEmail(tx, lapsedEmail(entry, item?.itemName ?? "your event", contact!));
  }
  if (!item || !contact) return 0;
  // A session that has begun, or an option no longer sold, offers nothing: its seats cannot be bought.
  if (item.session ? item.session <= now : ticketAvailability(item.option, item.event, now).status !== "available")
    return 0;
  if (item.event.archived || !item.event.ticketsOnSale) return 0;
  let free = await freeSeats(tx, key, item.option.capacity, now);
  if (free === null || free <= 0) return 0;

  const waiting = await tx
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.stockKey, key), eq(waitlistEntries.status, "waiting")))
    .orderBy(asc(waitlistEntries.id));
  const hours = await offerWindowHours(tx);
  let offered = 0;
  for (const entry of waiting) {
    if (entry.seats > free) continue;
    if (await holdsAnotherOffer(tx, entry, now)) continue;
    await offer(tx, entry, item, { now, hours, siteUrl, contact });
    free -= entry.seats;
    offered++;
    if (free <= 0) break;
  }
  return offered;
}

/** One offer per person at a time: an address holding an open offer on any list waits its turn. */
async function holdsAnotherOffer(tx: Tx, entry: EntryRow, now: Date): Promise<boolean> {
  // Lists are passed one key at a time, each under its own lock; this lock keeps two lists of one
  // person from offering to them at the same moment on two instances.
  await lockStockKey(tx, `waitlist-person:${entry.email}`);
  const [other] = await tx
    .select({ id: waitlistEntries.id })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.email, entry.email),
        eq(waitlistEntries.status, "offered"),
        gt(waitlistEntries.offerExpiresAt, now),
        ne(waitlistEntries.id, entry.id),
      ),
    )
    .limit(1);
  return !!other;
}

async function offer(
  tx: Tx,
  entry: EntryRow,
  item: NonNullable<Awaited<ReturnType<typeof listItem>>>,
  at: { now: Date; hours: number; siteUrl: string; contact: Awaited<ReturnType<typeof shopContact>> },
) {
  const token = randomBytes(24).toString("base64url");
  const expiresAt = new Date(at.now.getTime() + at.hours * 3_600_000);
  await tx
    .update(waitlistEntries)
    .set({ status: "offered", offerToken: token, offeredAt: at.now, offerExpiresAt: expiresAt })
    .where(eq(waitlistEntries.id, entry.id));
  await tx.insert(stockHolds).values({
    orderId: null,
    waitlistEntryId: entry.id,
    stockKey: entry.stockKey,
    quantity: entry.seats,
    expiresAt,
    clientKey: null,
    createdAt: at.now,
  });
  await queueEmail(
    tx,
    offerEmail(
      {
        entryId: entry.id,
        email: entry.email,
        name: entry.name,
        seats: entry.seats,
        itemName: item.itemName,
        sessionText: item.sessionText,
        priceCents: item.option.priceCents,
        link: offerLink(at.siteUrl, token),
        expiresAt,
        hours: at.hours,
      },
      at.contact,
    ),
  );
}

/**
 * The timed work's part (every instance, every minute, and just after start): a pass over every list
 * with someone waiting or holding an offer. Each list is its own transaction, so a slow one holds no
 * other list's lock.
 */
export async function offerFreedSeats(db: Database, now: Date, siteUrl: string): Promise<number> {
  const keys = await db
    .selectDistinct({ key: waitlistEntries.stockKey })
    .from(waitlistEntries)
    .where(inArray(waitlistEntries.status, ["waiting", "offered"]));
  let offered = 0;
  for (const { key } of keys) offered += await db.transaction((tx) => offerPassForKey(tx, key, now, siteUrl));
  return offered;
}

/** Why an offer link cannot buy: said in words on the page and in the checkout's toast. */
export class OfferUnavailableError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "OfferUnavailableError";
  }
}

const TOKEN = /^[A-Za-z0-9_-]{32}$/;

export type OfferLookup =
  | {
      state: "open";
      entry: EntryRow;
      expiresAt: Date;
      item: {
        orderType: "ticket" | "workshop";
        itemName: string;
        sessionText: string | null;
        description: string;
        priceCents: number;
        optionId: number;
        soldOutReason: string;
        pagePath: string;
      };
    }
  | { state: "expired" | "used" | "removed" | "unknown"; pagePath: string | null };

/** What an offer link holds now: open (with what it buys), or why not. */
export async function findOffer(db: Database, token: string, now: Date): Promise<OfferLookup> {
  if (!TOKEN.test(token)) return { state: "unknown", pagePath: null };
  const [entry] = await db.select().from(waitlistEntries).where(eq(waitlistEntries.offerToken, token)).limit(1);
  if (!entry) return { state: "unknown", pagePath: null };
  const item = await listItem(db, entry.stockKey);
  const pagePath = item
    ? item.event.id === "tablecloth-workshop"
      ? "/workshop/tablecloth-skirt"
      : `/tickets/${item.event.id}`
    : null;
  if (entry.status === "claimed") return { state: "used", pagePath };
  if (entry.status === "removed") return { state: "removed", pagePath };
  if (entry.status !== "offered" || !entry.offerExpiresAt || entry.offerExpiresAt <= now || !item)
    return { state: "expired", pagePath };
  return {
    state: "open",
    entry,
    expiresAt: entry.offerExpiresAt,
    item: {
      orderType: item.orderType,
      itemName: item.itemName,
      sessionText: item.sessionText,
      description: item.sessionText ? `${item.option.description} (${item.sessionText})` : item.option.description,
      priceCents: item.option.priceCents,
      optionId: item.option.id,
      soldOutReason: item.soldOutReason,
      pagePath: pagePath!,
    },
  };
}

export const OFFER_ENDED =
  "This offer has ended: its seats were held until the time in your email and have gone to the next person on the waiting list.";
export const OFFER_USED = "This offer has already been used to start a checkout.";

/**
 * Inside the transaction that stores the order: the offer's hold becomes the order's hold (same row,
 * so the seats are never free in between), and the offer is used. Throws OfferUnavailableError when
 * the offer ended or was used meanwhile (its lock is the stock key's, so a lapse pass cannot cross it).
 */
export async function claimOfferHold(
  tx: Tx,
  claim: { token: string; key: string; seats: number; orderId: string; now: Date; holdMinutes: number },
): Promise<void> {
  await lockStockKey(tx, claim.key);
  const [entry] = await tx
    .update(waitlistEntries)
    .set({ status: "claimed" })
    .where(
      and(
        eq(waitlistEntries.offerToken, claim.token),
        eq(waitlistEntries.stockKey, claim.key),
        eq(waitlistEntries.seats, claim.seats),
        eq(waitlistEntries.status, "offered"),
        gt(waitlistEntries.offerExpiresAt, claim.now),
      ),
    )
    .returning({ id: waitlistEntries.id });
  if (!entry) throw new OfferUnavailableError(OFFER_ENDED);
  const paymentWindowEnds = new Date(claim.now.getTime() + claim.holdMinutes * 60_000);
  const moved = await tx
    .update(stockHolds)
    .set({
      orderId: claim.orderId,
      // The order's own payment window from now, never shorter than what was left of the offer.
      expiresAt: sql`greatest(${stockHolds.expiresAt}, ${sql.param(paymentWindowEnds, stockHolds.expiresAt)}::timestamptz)`,
    })
    .where(and(eq(stockHolds.waitlistEntryId, entry.id), isNull(stockHolds.orderId), eq(stockHolds.status, "held")))
    .returning({ id: stockHolds.id });
  if (!moved.length) throw new OfferUnavailableError(OFFER_ENDED);
}
