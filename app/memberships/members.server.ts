import { and, desc, eq, sql } from "drizzle-orm";
import { recordAudit } from "~/admin/audit.server";
import type { Database, Tx } from "~/db/client.server";
import { memberPeriods, members, membershipTiers, orderLines, orders } from "~/db/schema";
import { queueEmail } from "~/email/outbox.server";
import { shopContact } from "~/email/shop-contact.server";
import { renewalLinkEmail } from "./member-emails.server";
import type { MemberLinkSettings } from "./member-links.server";
import { findMember, normaliseEmail, type MemberRow } from "./member-row.server";
import { addMonths, renewalStartsOn, southAfricanDay } from "./periods";

type Executor = Database | Tx;

/** The fields of a paid membership order this module reads (orders pass their row). */
type MembershipOrder = Pick<
  typeof orders.$inferSelect,
  "id" | "memberId" | "customerEmail" | "customerFirstName" | "customerLastName" | "customerPhone" | "amountCents"
>;

/** The tier the next renewal is for: the member's chosen change, else their current tier. */
export const renewalTierSlug = (member: Pick<MemberRow, "tierSlug" | "nextTierSlug">) =>
  member.nextTierSlug ?? member.tierSlug;

async function lockMember(tx: Tx, id: number): Promise<MemberRow | undefined> {
  const [row] = await tx.select().from(members).where(eq(members.id, id)).for("update");
  return row;
}

/**
 * A paid membership order gives its member one more calendar month, in the payment's transaction
 * (called by recordPayment). The order's own period row is unique, so however many times the payment
 * is confirmed (webhook retries, the buyer's return, reconciliation) it extends once. The first payment
 * of an email address makes its member; a renewal order names its member.
 */
export async function applyMembershipPayment(
  tx: Tx,
  order: MembershipOrder,
  now: Date,
): Promise<MemberRow | undefined> {
  const [line] = await tx
    .select({ slug: orderLines.membershipSlug })
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .limit(1);
  if (!line?.slug) return undefined;
  const today = southAfricanDay(now);
  let member = order.memberId ? await lockMember(tx, order.memberId) : undefined;
  if (!member) {
    const email = normaliseEmail(order.customerEmail);
    // A concurrent first payment for the same address may create the member first: then this one extends it.
    await tx
      .insert(members)
      .values({
        email,
        name: `${order.customerFirstName} ${order.customerLastName}`.trim(),
        phone: order.customerPhone,
        tierSlug: line.slug,
        status: "active",
        paidUntil: today,
        joinedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: members.email });
    [member] = await tx.select().from(members).where(eq(members.email, email)).for("update");
  }
  if (!member) return undefined;
  const startsOn = renewalStartsOn(member.paidUntil, today);
  const endsOn = addMonths(startsOn, 1);
  const period = await tx
    .insert(memberPeriods)
    .values({
      memberId: member.id,
      kind: "payment",
      orderId: order.id,
      tierSlug: line.slug,
      amountCents: order.amountCents,
      startsOn,
      endsOn,
      createdAt: now,
    })
    .onConflictDoNothing({ target: memberPeriods.orderId })
    .returning({ id: memberPeriods.id });
  if (!period.length) return member;
  const [extended] = await tx
    .update(members)
    // Paying again also undoes a cancellation: the member chose to stay.
    .set({
      tierSlug: line.slug,
      nextTierSlug: null,
      status: "active",
      paidUntil: endsOn,
      cancelledAt: null,
      updatedAt: now,
    })
    .where(eq(members.id, member.id))
    .returning();
  if (!order.memberId) await tx.update(orders).set({ memberId: member.id }).where(eq(orders.id, order.id));
  return extended;
}

export interface MemberPayment {
  id: number;
  kind: "payment" | "gift";
  orderId: string | null;
  reference: string | null;
  orderStatus: string | null;
  tierSlug: string;
  tierName: string;
  amountCents: number;
  startsOn: string;
  endsOn: string;
  note: string | null;
  createdAt: Date;
}

/** A member's months, newest first: each payment with its order, and the owner's gifts. */
export async function memberPayments(db: Executor, memberId: number): Promise<MemberPayment[]> {
  return db
    .select({
      id: memberPeriods.id,
      kind: memberPeriods.kind,
      orderId: memberPeriods.orderId,
      reference: orders.reference,
      orderStatus: orders.status,
      tierSlug: memberPeriods.tierSlug,
      tierName: sql<string>`coalesce(${membershipTiers.name}, ${memberPeriods.tierSlug})`,
      amountCents: memberPeriods.amountCents,
      startsOn: memberPeriods.startsOn,
      endsOn: memberPeriods.endsOn,
      note: memberPeriods.note,
      createdAt: memberPeriods.createdAt,
    })
    .from(memberPeriods)
    .leftJoin(orders, eq(orders.id, memberPeriods.orderId))
    .leftJoin(membershipTiers, eq(membershipTiers.slug, memberPeriods.tierSlug))
    .where(eq(memberPeriods.memberId, memberId))
    .orderBy(desc(memberPeriods.createdAt), desc(memberPeriods.id));
}

/**
 * Stops renewals: the member keeps access until paid-until and gets no more reminders. The owner's
 * cancellation is in her activity log; the member's own is theirs to make.
 */
export async function cancelMembership(
  db: Database,
  memberId: number,
  now: Date,
  by: "member" | "owner",
): Promise<MemberRow | undefined> {
  return db.transaction(async (tx) => {
    const member = await lockMember(tx, memberId);
    if (!member) return undefined;
    if (member.status === "cancelled") return member;
    const [cancelled] = await tx
      .update(members)
      .set({ status: "cancelled", cancelledAt: now, nextTierSlug: null, updatedAt: now })
      .where(eq(members.id, memberId))
      .returning();
    if (by === "owner") {
      await recordAudit(
        tx,
        {
          action: "member.cancel",
          entity: "member",
          entityId: memberId,
          summary: `Cancelled the membership of ${member.name} (${member.email})`,
          before: { status: member.status },
          after: { status: "cancelled" },
        },
        now,
      );
    }
    return cancelled;
  });
}

/** Undoes a cancellation while the member still has paid days: they are active again and will be reminded. */
export async function resumeMembership(db: Database, memberId: number, now: Date): Promise<MemberRow | undefined> {
  const [resumed] = await db
    .update(members)
    .set({ status: "active", cancelledAt: null, updatedAt: now })
    .where(
      and(
        eq(members.id, memberId),
        eq(members.status, "cancelled"),
        sql`${members.paidUntil} > ${southAfricanDay(now)}`,
      ),
    )
    .returning();
  return resumed;
}

/** A change of plan, taking effect at the next renewal. Only a tier the shop offers for a price can be chosen. */
export async function chooseNextTier(
  db: Database,
  memberId: number,
  tierSlug: string,
  now: Date,
): Promise<{ ok: true; member: MemberRow } | { ok: false; reason: string }> {
  const [tier] = await db.select().from(membershipTiers).where(eq(membershipTiers.slug, tierSlug)).limit(1);
  if (!tier || !tier.visible || tier.priceCents === null)
    return { ok: false, reason: "Please choose one of the plans on offer." };
  const member = await findMember(db, memberId);
  if (!member) return { ok: false, reason: "We could not find your membership." };
  const [updated] = await db
    .update(members)
    .set({ nextTierSlug: tier.slug === member.tierSlug ? null : tier.slug, updatedAt: now })
    .where(eq(members.id, memberId))
    .returning();
  return { ok: true, member: updated! };
}

export async function updateMemberDetails(
  db: Database,
  memberId: number,
  details: { name: string; phone: string },
  now: Date,
): Promise<MemberRow | undefined> {
  const [updated] = await db
    .update(members)
    .set({ name: details.name, phone: details.phone, updatedAt: now })
    .where(eq(members.id, memberId))
    .returning();
  return updated;
}

/** The owner's gift of one month, extending from paid-until like a renewal, noted in the member's history and her activity log. */
export async function giftMonth(
  db: Database,
  memberId: number,
  note: string,
  now: Date,
): Promise<MemberRow | undefined> {
  return db.transaction(async (tx) => {
    const member = await lockMember(tx, memberId);
    if (!member) return undefined;
    const today = southAfricanDay(now);
    const startsOn = renewalStartsOn(member.paidUntil, today);
    const endsOn = addMonths(startsOn, 1);
    await tx.insert(memberPeriods).values({
      memberId,
      kind: "gift",
      tierSlug: member.tierSlug,
      amountCents: 0,
      startsOn,
      endsOn,
      note,
      createdAt: now,
    });
    const [extended] = await tx
      .update(members)
      // A cancelled member keeps their decision (the gift only lengthens their access); anyone else is active again.
      .set({ paidUntil: endsOn, status: member.status === "cancelled" ? "cancelled" : "active", updatedAt: now })
      .where(eq(members.id, memberId))
      .returning();
    await recordAudit(
      tx,
      {
        action: "member.gift",
        entity: "member",
        entityId: memberId,
        summary: `Gave ${member.name} a month (${note})`,
        before: { paidUntil: member.paidUntil },
        after: { paidUntil: endsOn },
      },
      now,
    );
    return extended;
  });
}

/** Sends the member the renewal email again now (say, after a phone call), whatever the reminders did. */
export async function resendRenewalLink(
  db: Database,
  memberId: number,
  now: Date,
  links: MemberLinkSettings,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const member = await lockMember(tx, memberId);
    if (!member) return false;
    const tier = await renewalTier(tx, member);
    const email = renewalLinkEmail({ member, tier, links, contact: await shopContact(tx), kind: "resend" });
    await queueEmail(tx, { ...email, dedupeKey: `member-renewal-link:${memberId}:${now.getTime()}` });
    await recordAudit(
      tx,
      {
        action: "member.renewal-link",
        entity: "member",
        entityId: memberId,
        summary: `Sent ${member.name} a renewal link`,
      },
      now,
    );
    return true;
  });
}

/** The tier (name and price) the member's next renewal is for. */
export async function renewalTier(db: Executor, member: Pick<MemberRow, "tierSlug" | "nextTierSlug">) {
  const [tier] = await db
    .select()
    .from(membershipTiers)
    .where(eq(membershipTiers.slug, renewalTierSlug(member)))
    .limit(1);
  return tier!;
}
