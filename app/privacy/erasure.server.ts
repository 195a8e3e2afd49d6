import { createHash, randomBytes } from "node:crypto";
import { and, asc, desc, eq, lte, or, sql } from "drizzle-orm";
import { recordAudit } from "~/admin/audit.server";
import { saDay } from "~/analytics/days";
import type { AppContext } from "~/context.server";
import type { Database, Tx } from "~/db/client.server";
import { erasureRequests, events, orders, tickets } from "~/db/schema";
import { renderEmail } from "~/email/layout.server";
import { queueEmail } from "~/email/outbox.server";
import { shopContact } from "~/email/shop-contact.server";
import { dayMonthYear } from "~/lib/dates-in-words";
import { toPost } from "~/orders/orders-admin.server";
import { ERASERS, identifiersOf, type ErasureScope } from "./erasers.server";
import { dataSubject, subjectOrders, type DataSubject } from "./personal-records.server";

/** Days between asking and erasing: a mistaken click is undone from the confirmation email meanwhile. */
export const ERASURE_DAYS = 7;

const hash = (token: string) => createHash("sha256").update(token).digest("hex");
const isPlausibleToken = (token: string) => /^[A-Za-z0-9_-]{20,100}$/.test(token);

/** "ER-7K2Q9M": what the person's orders are called once their name is gone. */
function newReference(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = randomBytes(6);
  return `ER-${[...bytes].map((b) => alphabet[b % alphabet.length]).join("")}`;
}

export interface OpenOrder {
  reference: string;
  what: string;
  why: string;
}

/**
 * Orders the person may still want: unpaid, paid and waiting to be posted, or with a ticket for an
 * event still to come. Erasing takes away the name and address they need, so the person chooses.
 */
export async function openOrdersOf(db: Database | Tx, who: DataSubject, now: Date): Promise<OpenOrder[]> {
  const [unpaidOrToPost, ticketRows] = await Promise.all([
    db
      .select({ reference: orders.reference, what: orders.itemName, status: orders.status })
      .from(orders)
      .where(and(subjectOrders(who), or(eq(orders.status, "pending"), toPost)))
      .orderBy(asc(orders.createdAt)),
    db
      .selectDistinct({ reference: orders.reference, what: events.title })
      .from(tickets)
      .innerJoin(orders, eq(orders.id, tickets.orderId))
      .innerJoin(events, eq(events.id, tickets.eventId))
      .where(
        and(
          subjectOrders(who),
          eq(tickets.voided, false),
          sql`coalesce(${tickets.sessionStartsAt}, ${events.startsAt}) > ${now}`,
        ),
      ),
  ]);
  return [
    ...unpaidOrToPost.map((o) => ({
      reference: o.reference,
      what: o.what,
      why: o.status === "pending" ? "not paid yet" : "paid, to be posted to you",
    })),
    ...ticketRows.map((t) => ({ reference: t.reference, what: t.what, why: "a ticket for an event still to come" })),
  ];
}

export type ScheduledErasure = { id: number; reference: string; scheduledFor: Date; openOrders: "erase" | "wait" };

/** The person's request still waiting to be carried out, if any. */
export async function scheduledErasureFor(db: Database, email: string): Promise<ScheduledErasure | undefined> {
  const [row] = await db
    .select({
      id: erasureRequests.id,
      reference: erasureRequests.reference,
      scheduledFor: erasureRequests.scheduledFor,
      openOrders: erasureRequests.openOrders,
    })
    .from(erasureRequests)
    .where(and(eq(erasureRequests.email, email.toLowerCase()), eq(erasureRequests.status, "scheduled")))
    .limit(1);
  return row;
}

/**
 * Schedules the erasure of everything under the address, ERASURE_DAYS from now, and emails the
 * confirmation with the undo link. Asking again while one waits changes only the open-orders choice.
 * The owner's request (a person's phone call) is written to the audit log by its reference only.
 */
export async function scheduleErasure(
  context: Pick<AppContext, "db" | "config" | "clock">,
  input: { email: string; openOrders: "erase" | "wait"; requestedBy: "person" | "owner" },
): Promise<ScheduledErasure> {
  const now = context.clock.now();
  const email = input.email.trim().toLowerCase();
  return context.db.transaction(async (tx) => {
    const [waiting] = await tx
      .update(erasureRequests)
      .set({ openOrders: input.openOrders })
      .where(and(eq(erasureRequests.email, email), eq(erasureRequests.status, "scheduled")))
      .returning();
    if (waiting) return waiting;
    const token = randomBytes(32).toString("base64url");
    const scheduledFor = new Date(now.getTime() + ERASURE_DAYS * 86_400_000);
    const [row] = await tx
      .insert(erasureRequests)
      .values({
        email,
        reference: newReference(),
        requestedBy: input.requestedBy,
        openOrders: input.openOrders,
        undoTokenHash: hash(token),
        requestedAt: now,
        scheduledFor,
      })
      .returning();
    const undo = `${context.config.siteUrl}/your-data/undo?${new URLSearchParams({ token })}`;
    const day = dayMonthYear(saDay(scheduledFor));
    const { html, text } = renderEmail({
      preheader: `Your data will be deleted on ${day}, unless you undo it`,
      heading: "We will delete your data",
      blocks: [
        {
          kind: "paragraph",
          text:
            `As asked, on ${day} we will delete everything we hold under this address: your name, email, phone, ` +
            "address, messages and membership details. What the law makes us keep for the books (the amounts, dates " +
            `and items of your orders) stays under the anonymous reference ${row!.reference}.`,
        },
        { kind: "paragraph", text: "Changed your mind, or was it not you? Undo it before then:" },
        { kind: "button", href: undo, label: "Keep my data" },
      ],
      contact: await shopContact(tx),
    });
    await queueEmail(tx, {
      to: email,
      subject: "Your Honey Bee data will be deleted",
      text,
      html,
      dedupeKey: `erasure:${row!.id}`,
    });
    if (input.requestedBy === "owner")
      await recordAudit(
        tx,
        {
          action: "erasure.request",
          entity: "erasure",
          entityId: row!.id,
          summary: `Scheduled erasure ${row!.reference} for ${day}, for a person who asked by phone or in person`,
        },
        now,
      );
    return row!;
  });
}

/** Undoes a waiting request by its emailed token (one conditional update). */
export async function undoErasureByToken(db: Database, token: string, now: Date): Promise<"undone" | "unknown"> {
  if (!isPlausibleToken(token)) return "unknown";
  const [row] = await db
    .update(erasureRequests)
    .set({ status: "cancelled", cancelledAt: now, undoTokenHash: null })
    .where(and(eq(erasureRequests.undoTokenHash, hash(token)), eq(erasureRequests.status, "scheduled")))
    .returning({ id: erasureRequests.id });
  return row ? "undone" : "unknown";
}

/** Undoes the address's waiting request from its data page. */
export async function undoErasureFor(db: Database, email: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(erasureRequests)
    .set({ status: "cancelled", cancelledAt: now, undoTokenHash: null })
    .where(and(eq(erasureRequests.email, email.toLowerCase()), eq(erasureRequests.status, "scheduled")))
    .returning({ id: erasureRequests.id });
  return rows.length > 0;
}

export type ErasureOutcome = "done" | "waiting" | "gone";

/** Stops a member's monthly card charge at the provider (stopCardCharges): "unreachable" changes nothing. */
export type CardStopper = (memberId: number) => Promise<"stopped" | "none" | "unreachable">;

/**
 * Carries out one request, once: the row is locked and must still be scheduled, so a second instance
 * (or the owner pressing "Erase now" as the job runs) finds it done and does nothing. A request that
 * chose to wait for open orders stays scheduled while any is open. Written to the audit log by its
 * reference, without the erased data.
 */
export async function carryOutErasure(
  db: Database,
  id: number,
  now: Date,
  by: "schedule" | "owner",
  stopCard: CardStopper,
): Promise<ErasureOutcome> {
  // A member paying by card is charged no more: the provider is told first, outside the transaction (a
  // network call), and only once the erasure will go ahead. Unreachable, the request waits for the next pass.
  const [pending] = await db
    .select()
    .from(erasureRequests)
    .where(and(eq(erasureRequests.id, id), eq(erasureRequests.status, "scheduled")));
  if (!pending?.email) return "gone";
  const subject = await dataSubject(db, pending.email);
  if (pending.openOrders === "wait" && (await openOrdersOf(db, subject, now)).length) return "waiting";
  if (subject.memberId !== null && (await stopCard(subject.memberId)) === "unreachable") return "waiting";
  return db.transaction(async (tx) => {
    const [request] = await tx
      .select()
      .from(erasureRequests)
      .where(and(eq(erasureRequests.id, id), eq(erasureRequests.status, "scheduled")))
      .for("update");
    if (!request?.email) return "gone";
    const who = await dataSubject(tx, request.email);
    if (request.openOrders === "wait" && (await openOrdersOf(tx, who, now)).length) return "waiting";
    const orderIds = (await tx.select({ id: orders.id }).from(orders).where(subjectOrders(who))).map((o) => o.id);
    const scope: ErasureScope = {
      who,
      reference: request.reference,
      placeholderEmail: `${request.reference.toLowerCase()}@erased.invalid`,
      orderIds,
      identifiers: await identifiersOf(tx, who, orderIds),
    };
    for (const erase of ERASERS) await erase(tx, scope, now);
    await tx
      .update(erasureRequests)
      .set({ status: "done", email: null, undoTokenHash: null, carriedOutAt: now })
      .where(eq(erasureRequests.id, id));
    // Earlier requests that were undone name the address too.
    await tx.update(erasureRequests).set({ email: null }).where(eq(erasureRequests.email, who.email));
    await recordAudit(
      tx,
      {
        action: "erasure.done",
        entity: "erasure",
        entityId: id,
        summary:
          `Erased the data of ${request.reference}${by === "owner" ? " (the owner ran it)" : ""}: ` +
          `${orderIds.length} orders kept under that reference`,
      },
      now,
    );
    return "done";
  });
}

/** The timed work's part: every request whose day has come, each carried out once. */
export async function runDueErasures(
  db: Database,
  now: Date,
  stopCard: CardStopper,
): Promise<{ done: number; waiting: number }> {
  const due = await db
    .select({ id: erasureRequests.id })
    .from(erasureRequests)
    .where(and(eq(erasureRequests.status, "scheduled"), lte(erasureRequests.scheduledFor, now)))
    .orderBy(asc(erasureRequests.scheduledFor));
  const result = { done: 0, waiting: 0 };
  for (const { id } of due) {
    const outcome = await carryOutErasure(db, id, now, "schedule", stopCard);
    if (outcome === "done") result.done++;
    if (outcome === "waiting") result.waiting++;
  }
  return result;
}

/** Every request for the owner, newest first: the address only while it waits, then the reference alone. */
export function listErasureRequests(db: Database) {
  return db.select().from(erasureRequests).orderBy(desc(erasureRequests.requestedAt)).limit(200);
}
