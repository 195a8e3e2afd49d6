import { asc, eq, inArray, or, sql } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import {
  consentRecords,
  contactSubmissions,
  dataAccessSessions,
  emailOutbox,
  events,
  memberPeriods,
  memberSessions,
  members,
  newsletterRecipients,
  newsletters,
  orderLines,
  orders,
  subscribers,
  ticketOptions,
  tickets,
  waitlistEntries,
} from "~/db/schema";
import { formatRand } from "~/lib/money";

/** One record as a person reads it: labelled values, in order. */
export type PersonalRecord = Record<string, string | number | boolean | null>;

export interface RecordSection {
  key: string;
  title: string;
  /** What the section holds and why the shop keeps it, in a sentence. */
  about: string;
  records: PersonalRecord[];
}

export interface PersonalRecords {
  email: string;
  generatedAt: string;
  sections: RecordSection[];
}

/** Whose records: the address (lower case) and the member it belongs to, if any. */
export interface DataSubject {
  email: string;
  memberId: number | null;
}

type Source = Omit<RecordSection, "records"> & { read: (db: Database, who: DataSubject) => Promise<PersonalRecord[]> };

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const byEmail = (
  column: typeof orders.customerEmail | typeof contactSubmissions.email | typeof emailOutbox.toAddress,
  email: string,
) => sql`lower(${column}) = ${email}`;

/** The orders that name the person: by the address on them, or made for their membership. */
export function subjectOrders(who: DataSubject) {
  return who.memberId === null
    ? byEmail(orders.customerEmail, who.email)
    : or(byEmail(orders.customerEmail, who.email), eq(orders.memberId, who.memberId));
}

const ordersSource: Source = {
  key: "orders",
  title: "Orders",
  about: "What you bought, for the delivery and the shop's books (kept five years, as tax law asks).",
  async read(db, who) {
    const rows = await db.select().from(orders).where(subjectOrders(who)).orderBy(asc(orders.createdAt));
    const lines = rows.length
      ? await db
          .select()
          .from(orderLines)
          .where(
            inArray(
              orderLines.orderId,
              rows.map((o) => o.id),
            ),
          )
          .orderBy(asc(orderLines.id))
      : [];
    return rows.map((o) => ({
      Reference: o.reference,
      Date: iso(o.createdAt),
      Items:
        lines
          .filter((l) => l.orderId === o.id)
          .map((l) => `${l.quantity} × ${l.displayName} at ${formatRand(l.unitPriceCents)}`)
          .join("; ") || o.itemName,
      Attendees:
        lines
          .filter((l) => l.orderId === o.id && l.attendeeNames?.length)
          .map((l) => `${l.displayName}: ${l.attendeeNames!.join(", ")}`)
          .join("; ") || null,
      Amount: formatRand(o.amountCents),
      Refunded: o.refundedCents ? formatRand(o.refundedCents) : null,
      Status: o.status,
      Fulfilment: o.fulfilmentMethod ?? o.fulfilmentStatus,
      Name: `${o.customerFirstName} ${o.customerLastName}`.trim(),
      Email: o.customerEmail,
      Phone: o.customerPhone,
      Address: o.customerAddress || null,
    }));
  },
};

const ticketsSource: Source = {
  key: "tickets",
  title: "Tickets",
  about: "The seats your orders bought, so the door can admit you.",
  async read(db, who) {
    const rows = await db
      .select({ ticket: tickets, event: events.title, reference: orders.reference })
      .from(tickets)
      .innerJoin(orders, eq(orders.id, tickets.orderId))
      .innerJoin(events, eq(events.id, tickets.eventId))
      .where(subjectOrders(who))
      .orderBy(asc(tickets.id));
    return rows.map(({ ticket, event, reference }) => ({
      Order: reference,
      Event: event,
      Seat: ticket.seatNumber,
      Name: ticket.holderName,
      Session: iso(ticket.sessionStartsAt),
      "Checked in": iso(ticket.checkedInAt),
      Cancelled: ticket.voided,
    }));
  },
};

const messagesSource: Source = {
  key: "messages",
  title: "Messages",
  about: "What you wrote through the contact form, so the shop can answer you.",
  async read(db, who) {
    const rows = await db
      .select()
      .from(contactSubmissions)
      .where(byEmail(contactSubmissions.email, who.email))
      .orderBy(asc(contactSubmissions.createdAt));
    return rows.map((m) => ({
      Date: iso(m.createdAt),
      Name: `${m.firstName} ${m.lastName}`.trim(),
      Email: m.email,
      Subject: m.subject,
      Message: m.message,
      Answered: iso(m.answeredAt),
    }));
  },
};

const membershipSource: Source = {
  key: "membership",
  title: "Membership",
  about: "Your plan and details, so the shop can give you its benefits and remind you to renew.",
  async read(db, who) {
    const rows = await db
      .select()
      .from(members)
      .where(sql`lower(${members.email}) = ${who.email}`);
    return rows.map((m) => ({
      Name: m.name,
      Email: m.email,
      Phone: m.phone,
      Plan: m.tierSlug,
      "Next plan": m.nextTierSlug,
      Status: m.status,
      "Paid until": m.paidUntil,
      Joined: iso(m.joinedAt),
      Cancelled: iso(m.cancelledAt),
    }));
  },
};

const memberHistorySource: Source = {
  key: "member-history",
  title: "Membership history",
  about: "Every month you paid for or were given.",
  async read(db, who) {
    if (who.memberId === null) return [];
    const rows = await db
      .select()
      .from(memberPeriods)
      .where(eq(memberPeriods.memberId, who.memberId))
      .orderBy(asc(memberPeriods.createdAt));
    return rows.map((p) => ({
      Kind: p.kind,
      Plan: p.tierSlug,
      Amount: p.kind === "gift" ? "Gift" : formatRand(p.amountCents),
      From: p.startsOn,
      Until: p.endsOn,
      Note: p.note,
    }));
  },
};

const sessionsSource: Source = {
  key: "sessions",
  title: "Sign-ins",
  about: "The browsers signed in to your membership or to this page (no address or device is kept).",
  async read(db, who) {
    const member =
      who.memberId === null
        ? []
        : await db
            .select({ createdAt: memberSessions.createdAt, expiresAt: memberSessions.expiresAt })
            .from(memberSessions)
            .where(eq(memberSessions.memberId, who.memberId));
    const data = await db
      .select({ createdAt: dataAccessSessions.createdAt, expiresAt: dataAccessSessions.expiresAt })
      .from(dataAccessSessions)
      .where(eq(dataAccessSessions.email, who.email));
    return [
      ...member.map((s) => ({ For: "Membership", Started: iso(s.createdAt), Ends: iso(s.expiresAt) })),
      ...data.map((s) => ({ For: "Your data", Started: iso(s.createdAt), Ends: iso(s.expiresAt) })),
    ];
  },
};

const emailsSource: Source = {
  key: "emails",
  title: "Emails to you",
  about: "The messages the shop sent you: receipts, tickets, reminders and links you asked for.",
  async read(db, who) {
    const rows = await db
      .select()
      .from(emailOutbox)
      .where(byEmail(emailOutbox.toAddress, who.email))
      .orderBy(asc(emailOutbox.createdAt));
    return rows.map((e) => ({
      Date: iso(e.createdAt),
      To: e.toAddress,
      Subject: e.subject,
      Status: e.status,
      Text: e.textBody,
    }));
  },
};

const newsSource: Source = {
  key: "news",
  title: "News by email",
  about:
    "Whether you asked for our news, every consent or refusal kept as evidence (the wording, where, when, how " +
    "confirmed), and the newsletters sent to you.",
  async read(db, who) {
    const [subscriber] = await db.select().from(subscribers).where(eq(subscribers.email, who.email));
    const consents = subscriber
      ? await db
          .select()
          .from(consentRecords)
          .where(eq(consentRecords.subscriberId, subscriber.id))
          .orderBy(asc(consentRecords.at))
      : [];
    const sent = await db
      .select({ title: newsletters.title, queuedAt: newsletterRecipients.queuedAt })
      .from(newsletterRecipients)
      .innerJoin(newsletters, eq(newsletters.id, newsletterRecipients.newsletterId))
      .where(eq(newsletterRecipients.email, who.email))
      .orderBy(asc(newsletterRecipients.queuedAt));
    return [
      ...(subscriber ? [{ Record: "Subscription", Status: subscriber.status, Since: iso(subscriber.createdAt) }] : []),
      ...consents.map((c) => ({
        Record: "Consent",
        Action: c.action,
        Wording: c.wording,
        Form: c.form,
        Page: c.page,
        "Confirmed by": c.confirmedBy,
        When: iso(c.at),
      })),
      ...sent.map((n) => ({ Record: "Newsletter", Title: n.title, Sent: iso(n.queuedAt) })),
    ];
  },
};

const waitingListsSource: Source = {
  key: "waiting-lists",
  title: "Waiting lists",
  about: "The sold-out events you asked to be offered seats for, and the offers made to you.",
  async read(db, who) {
    const rows = await db
      .select({ entry: waitlistEntries, option: ticketOptions.type, event: events.title })
      .from(waitlistEntries)
      .innerJoin(ticketOptions, eq(ticketOptions.id, waitlistEntries.ticketOptionId))
      .innerJoin(events, eq(events.id, ticketOptions.eventId))
      .where(eq(waitlistEntries.email, who.email))
      .orderBy(asc(waitlistEntries.createdAt));
    return rows.map(({ entry, option, event }) => ({
      Event: event,
      Ticket: option,
      Name: entry.name,
      Seats: entry.seats,
      Status: entry.status,
      Joined: iso(entry.createdAt),
      "Offered until": iso(entry.offerExpiresAt),
    }));
  },
};

/**
 * Everything the shop holds that names an address, source by source. A new kind of personal record
 * (a new table that names a person) is one more entry here, and the erasure's list beside it.
 */
export const PERSONAL_SOURCES: readonly Source[] = [
  ordersSource,
  ticketsSource,
  messagesSource,
  membershipSource,
  memberHistorySource,
  sessionsSource,
  emailsSource,
  newsSource,
  waitingListsSource,
];

/** The member an address belongs to, if any (addresses are kept in lower case). */
export async function dataSubject(db: Database | Tx, email: string): Promise<DataSubject> {
  const address = email.trim().toLowerCase();
  const [member] = await db.select({ id: members.id }).from(members).where(eq(members.email, address)).limit(1);
  return { email: address, memberId: member?.id ?? null };
}

export async function readPersonalRecords(db: Database, who: DataSubject, now: Date): Promise<PersonalRecords> {
  const sections = await Promise.all(
    PERSONAL_SOURCES.map(async ({ read, ...section }) => ({ ...section, records: await read(db, who) })),
  );
  return { email: who.email, generatedAt: now.toISOString(), sections };
}

/** Whether the shop holds any record under the address (a link is emailed only then). */
export async function holdsAnything(db: Database, who: DataSubject): Promise<boolean> {
  if (who.memberId !== null) return true;
  const result = await db.execute(sql`
    select 1 from orders where lower(customer_email) = ${who.email}
    union all select 1 from contact_submissions where lower(email) = ${who.email}
    union all select 1 from email_outbox where lower(to_address) = ${who.email}
    union all select 1 from subscribers where email = ${who.email}
    union all select 1 from waitlist_entries where email = ${who.email}
    limit 1`);
  return ((result as { rows?: unknown[] }).rows ?? []).length > 0;
}
