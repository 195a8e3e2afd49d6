import { createHash, randomBytes } from "node:crypto";
import { and, asc, desc, eq, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import { recordAudit } from "~/admin/audit.server";
import { saDay } from "~/analytics/days";
import type { AppContext } from "~/context.server";
import type { Database, Tx } from "~/db/client.server";
import {
  stockHolds,
  waitlistEntries,
  consentRecords,
  newsletterRecipients,
  subscribers,
  adminAuditLog,
  contactSubmissions,
  dataAccessLinks,
  dataAccessSessions,
  emailOutbox,
  erasureRequests,
  events,
  memberLoginTokens,
  memberPeriods,
  memberSessions,
  members,
  orderEvents,
  orders,
  paymentWebhookEvents,
  tickets,
} from "~/db/schema";
import { renderEmail } from "~/email/layout.server";
import { queueEmail } from "~/email/outbox.server";
import { shopContact } from "~/email/shop-contact.server";
import { dayMonthYear } from "~/lib/dates-in-words";
import { toPost } from "~/orders/orders-admin.server";
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

/** What an erasure works with: who, the anonymous reference and what replaces an address. */
interface ErasureScope {
  who: DataSubject;
  reference: string;
  placeholderEmail: string;
  orderIds: string[];
  /** Every name, address, phone and email of the person's records, longest first, for free text. */
  identifiers: string[];
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The text with every identifier replaced by the reference (names as whole words, case ignored). */
export function scrubText(text: string, scope: Pick<ErasureScope, "identifiers" | "reference">): string {
  let out = text;
  for (const id of scope.identifiers) {
    const pattern = /^[\p{L}' -]+$/u.test(id) ? `(?<![\\p{L}])${escapeRegExp(id)}(?![\\p{L}])` : escapeRegExp(id);
    out = out.replace(new RegExp(pattern, "giu"), scope.reference);
  }
  return out;
}

function scrubValue<T>(value: T, scope: ErasureScope): T {
  if (typeof value === "string") return scrubText(value, scope) as T;
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, scope)) as T;
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubValue(v, scope)])) as T;
  return value;
}

/**
 * Rows whose text mentions the person: an address, a phone, a whole name. A first name alone is not
 * searched for (it would find other people's rows); it is replaced only in rows found otherwise.
 */
function mentions(text: SQL, scope: ErasureScope): SQL {
  const searchable = scope.identifiers.filter((id) => id.length >= 4 && /[\s@\d]/.test(id));
  if (!searchable.length) return sql`false`;
  return or(...searchable.map((id) => sql`${text} ilike ${`%${escapeLike(id)}%`}`))!;
}

async function identifiersOf(tx: Tx, who: DataSubject, orderIds: string[]): Promise<string[]> {
  const [orderRows, messageRows, memberRows, ticketRows] = await Promise.all([
    tx.select().from(orders).where(subjectOrders(who)),
    tx
      .select()
      .from(contactSubmissions)
      .where(sql`lower(${contactSubmissions.email}) = ${who.email}`),
    tx.select().from(members).where(eq(members.email, who.email)),
    orderIds.length
      ? tx.select({ name: tickets.holderName }).from(tickets).where(inArray(tickets.orderId, orderIds))
      : Promise.resolve([]),
  ]);
  const found = [
    who.email,
    ...orderRows.flatMap((o) => [
      o.customerEmail,
      `${o.customerFirstName} ${o.customerLastName}`,
      o.customerFirstName,
      o.customerLastName,
      o.customerPhone,
      o.customerAddress,
      ...o.customerAddress.split(/\r?\n|,\s*/),
    ]),
    ...messageRows.flatMap((m) => [m.email, `${m.firstName} ${m.lastName}`, m.firstName, m.lastName]),
    ...memberRows.flatMap((m) => [m.email, m.name, ...m.name.split(/\s+/), m.phone]),
    ...ticketRows.map((t) => t.name),
  ];
  const cleaned = found.map((s) => s.trim()).filter((s) => s.length >= 2);
  return [...new Set(cleaned)].sort((a, b) => b.length - a.length);
}

type Eraser = (tx: Tx, scope: ErasureScope, now: Date) => Promise<void>;

/**
 * Every kind of personal record, erased or made anonymous. Amounts, dates and items of orders stay
 * (the books), under the reference. A new kind of record (a new table that names a person) is one more
 * entry here, and one in personal-records.server.ts.
 */
const ERASERS: readonly Eraser[] = [
  async function orderCustomer(tx, scope) {
    if (!scope.orderIds.length) return;
    await tx
      .update(orders)
      .set({
        customerFirstName: "Erased",
        customerLastName: scope.reference,
        customerEmail: scope.placeholderEmail,
        customerPhone: "",
        customerAddress: "",
        ownerNote: null,
        sessionId: null,
      })
      .where(inArray(orders.id, scope.orderIds));
    await tx.update(tickets).set({ holderName: scope.reference }).where(inArray(tickets.orderId, scope.orderIds));
    const history = await tx.select().from(orderEvents).where(inArray(orderEvents.orderId, scope.orderIds));
    for (const event of history)
      await tx
        .update(orderEvents)
        .set({
          summary: scrubText(event.summary, scope),
          detail: event.detail ? scrubValue(event.detail, scope) : null,
        })
        .where(eq(orderEvents.id, event.id));
  },
  async function messages(tx, scope) {
    await tx.delete(contactSubmissions).where(sql`lower(${contactSubmissions.email}) = ${scope.who.email}`);
  },
  async function membership(tx, scope, now) {
    if (scope.who.memberId === null) return;
    const id = scope.who.memberId;
    await tx.delete(memberSessions).where(eq(memberSessions.memberId, id));
    await tx.delete(memberLoginTokens).where(eq(memberLoginTokens.memberId, id));
    await tx.update(memberPeriods).set({ note: null }).where(eq(memberPeriods.memberId, id));
    // The row stays for the months it was paid (they belong to orders), under the reference; without an
    // address it can never sign in or be reminded again.
    await tx
      .update(members)
      .set({
        name: `Erased ${scope.reference}`,
        email: scope.placeholderEmail,
        phone: "",
        status: "cancelled",
        cancelledAt: now,
        nextTierSlug: null,
        updatedAt: now,
      })
      .where(eq(members.id, id));
  },
  async function news(tx, scope, now) {
    const [subscriber] = await tx.select().from(subscribers).where(eq(subscribers.email, scope.who.email));
    if (subscriber) {
      // The evidence stays, with the keyed hash only: a last record says her consent ended with her data.
      const [evidence] = await tx
        .select({ addressHash: consentRecords.addressHash })
        .from(consentRecords)
        .where(eq(consentRecords.subscriberId, subscriber.id))
        .limit(1);
      if (evidence && subscriber.status !== "unsubscribed")
        await tx.insert(consentRecords).values({
          subscriberId: subscriber.id,
          action: "withdrawn",
          wording: "Erasure of the person's data at their request",
          form: "erasure",
          page: "/your-data",
          confirmedBy: `erasure ${scope.reference}`,
          addressHash: evidence.addressHash,
          at: now,
        });
      await tx.delete(subscribers).where(eq(subscribers.id, subscriber.id));
    }
    // Who a newsletter went to stays counted, under the reference.
    await tx
      .update(newsletterRecipients)
      .set({ email: scope.placeholderEmail, name: null })
      .where(eq(newsletterRecipients.email, scope.who.email));
  },
  async function waitingLists(tx, scope) {
    const entries = await tx
      .select({ id: waitlistEntries.id })
      .from(waitlistEntries)
      .where(eq(waitlistEntries.email, scope.who.email));
    if (!entries.length) return;
    const ids = entries.map((e) => e.id);
    // Seats held for her offer go back: the next person in line is offered them at the next pass.
    await tx
      .update(stockHolds)
      .set({ status: "released" })
      .where(and(inArray(stockHolds.waitlistEntryId, ids), eq(stockHolds.status, "held")));
    await tx
      .update(waitlistEntries)
      .set({
        email: scope.placeholderEmail,
        name: scope.reference,
        offerToken: null,
        status: sql`case when ${waitlistEntries.status} in ('waiting', 'offered') then 'removed' else ${waitlistEntries.status} end`,
      })
      .where(inArray(waitlistEntries.id, ids));
  },
  async function dataAccess(tx, scope) {
    await tx.delete(dataAccessSessions).where(eq(dataAccessSessions.email, scope.who.email));
    await tx.delete(dataAccessLinks).where(eq(dataAccessLinks.email, scope.who.email));
  },
  async function outbox(tx, scope) {
    const blank = { subject: "(erased)", textBody: "(erased)", htmlBody: null, attachments: null };
    const own = or(
      sql`lower(${emailOutbox.toAddress}) = ${scope.who.email}`,
      scope.who.memberId === null ? undefined : eq(emailOutbox.memberId, scope.who.memberId),
      scope.orderIds.length ? inArray(emailOutbox.orderId, scope.orderIds) : undefined,
    );
    // Messages to her are emptied; one still waiting is never sent (there is no address left to send to).
    await tx
      .update(emailOutbox)
      .set({ ...blank, toAddress: scope.placeholderEmail })
      .where(and(own, sql`lower(${emailOutbox.toAddress}) = ${scope.who.email}`));
    await tx
      .update(emailOutbox)
      .set({ status: "failed", lastError: "Erased at the person's request" })
      .where(and(eq(emailOutbox.toAddress, scope.placeholderEmail), eq(emailOutbox.status, "pending")));
    // Messages about her to someone else (the owner's notices) keep their use without naming her.
    const about = await tx
      .select()
      .from(emailOutbox)
      .where(
        or(
          own,
          mentions(
            sql`${emailOutbox.subject} || ' ' || ${emailOutbox.textBody} || ' ' || coalesce(${emailOutbox.htmlBody}, '')`,
            scope,
          ),
        ),
      );
    for (const mail of about)
      await tx
        .update(emailOutbox)
        .set({
          subject: scrubText(mail.subject, scope),
          textBody: scrubText(mail.textBody, scope),
          htmlBody: mail.htmlBody === null ? null : scrubText(mail.htmlBody, scope),
          attachments: null,
        })
        .where(eq(emailOutbox.id, mail.id));
  },
  async function auditLog(tx, scope) {
    const entries = await tx
      .select()
      .from(adminAuditLog)
      .where(
        or(
          mentions(
            sql`${adminAuditLog.summary} || ' ' || coalesce(${adminAuditLog.before}::text, '') || ' ' ||
              coalesce(${adminAuditLog.after}::text, '')`,
            scope,
          ),
          scope.who.memberId === null
            ? undefined
            : and(eq(adminAuditLog.entity, "member"), eq(adminAuditLog.entityId, String(scope.who.memberId))),
        ),
      );
    for (const entry of entries)
      await tx
        .update(adminAuditLog)
        .set({
          summary: scrubText(entry.summary, scope),
          before: entry.before ? scrubValue(entry.before, scope) : null,
          after: entry.after ? scrubValue(entry.after, scope) : null,
        })
        .where(eq(adminAuditLog.id, entry.id));
  },
  async function paymentNotices(tx, scope) {
    const notices = await tx
      .select()
      .from(paymentWebhookEvents)
      .where(mentions(sql`${paymentWebhookEvents.payload}::text`, scope));
    for (const notice of notices)
      await tx
        .update(paymentWebhookEvents)
        .set({ payload: scrubValue(notice.payload, scope) })
        .where(eq(paymentWebhookEvents.webhookId, notice.webhookId));
  },
];

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
