// What erasing a person's data does to each kind of record (decision 119): the scope it works with,
// the scrubbing of her details out of free text, and one eraser per kind of record. When and how a
// request is carried out (once, under its row's lock) is erasure.server.ts.
import { and, eq, inArray, isNotNull, or, sql, type SQL } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import {
  adminAuditLog,
  consentRecords,
  contactSubmissions,
  dataAccessLinks,
  dataAccessSessions,
  emailOutbox,
  memberLoginTokens,
  memberPeriods,
  memberSessions,
  members,
  newsletterRecipients,
  orderEvents,
  orderLines,
  orders,
  paymentWebhookEvents,
  stockHolds,
  subscribers,
  tickets,
  waitlistEntries,
} from "~/db/schema";
import { subjectOrders, type DataSubject } from "./personal-records.server";

/** What an erasure works with: who, the anonymous reference and what replaces an address. */
export interface ErasureScope {
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

export async function identifiersOf(tx: Tx, who: DataSubject, orderIds: string[]): Promise<string[]> {
  const [orderRows, messageRows, memberRows, ticketRows, lineRows] = await Promise.all([
    tx.select().from(orders).where(subjectOrders(who)),
    tx
      .select()
      .from(contactSubmissions)
      .where(sql`lower(${contactSubmissions.email}) = ${who.email}`),
    tx.select().from(members).where(eq(members.email, who.email)),
    orderIds.length
      ? tx.select({ name: tickets.holderName }).from(tickets).where(inArray(tickets.orderId, orderIds))
      : Promise.resolve([]),
    // Names typed for seats of an order not yet paid have no ticket yet.
    orderIds.length
      ? tx
          .select({ names: orderLines.attendeeNames })
          .from(orderLines)
          .where(and(inArray(orderLines.orderId, orderIds), isNotNull(orderLines.attendeeNames)))
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
    ...lineRows.flatMap((l) => l.names ?? []),
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
export const ERASERS: readonly Eraser[] = [
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
    // The seats' holders are the buyer's personal data too: the line keeps its item, quantity and money.
    await tx.update(orderLines).set({ attendeeNames: null }).where(inArray(orderLines.orderId, scope.orderIds));
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
