import { and, asc, eq, inArray, isNotNull, or } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { memberPeriods, membershipTiers, orders } from "~/db/schema";
import { dayMonthYear } from "~/lib/dates-in-words";
import { formatRand } from "~/lib/money";
import { howMemberPays } from "./card-subscriptions.server";
import { findMember, type MemberRow } from "./member-row.server";
import { paysInWords } from "./pays-words";
import { memberPayments, renewalTierSlug } from "./members.server";
import { statusInWords } from "./member-status-words";
import { southAfricanDay, statusOn } from "./periods";

/** A tier the member may choose for the next renewal: visible and sold at a price. */
export async function choosableTiers(db: Database) {
  const rows = await db
    .select({ slug: membershipTiers.slug, name: membershipTiers.name, priceCents: membershipTiers.priceCents })
    .from(membershipTiers)
    .where(and(eq(membershipTiers.visible, true), isNotNull(membershipTiers.priceCents)))
    .orderBy(asc(membershipTiers.sortOrder), asc(membershipTiers.name));
  return rows.map((t) => ({ slug: t.slug, name: t.name, price: `${formatRand(t.priceCents!)} / month` }));
}

async function tierNamed(db: Database, slug: string) {
  const [tier] = await db.select().from(membershipTiers).where(eq(membershipTiers.slug, slug)).limit(1);
  return tier;
}

/** What the next renewal will be: the tier chosen for it (or the current one) at its price today. */
export async function nextRenewal(db: Database, member: MemberRow) {
  const tier = await tierNamed(db, renewalTierSlug(member));
  return {
    tierName: tier?.name ?? renewalTierSlug(member),
    price: tier?.priceCents == null ? null : `${formatRand(tier.priceCents)} / month`,
  };
}

/** A paused membership (decision 130): what she keeps now and when her card is charged again. */
function pausedInWords(paidUntil: string, pausedUntil: string, today: string) {
  const until = dayMonthYear(pausedUntil);
  return {
    label: `Paused until ${until}`,
    sentence:
      today < paidUntil
        ? `You keep your membership until ${dayMonthYear(paidUntil)}; ` +
          `your card is charged again on ${until} and your membership continues from then.`
        : `Your card is charged again on ${until} and your membership continues from then.`,
  };
}

/** Everything /account shows a signed-in member, read for that member only. */
export async function accountView(db: Database, memberId: number, now: Date) {
  const member = await findMember(db, memberId);
  if (!member) return undefined;
  const today = southAfricanDay(now);
  const status = statusOn(member, today);
  const [current, renewal, tiers, payments, pays] = await Promise.all([
    tierNamed(db, member.tierSlug),
    nextRenewal(db, member),
    choosableTiers(db),
    memberPayments(db, member.id),
    howMemberPays(db, member.id),
  ]);
  return {
    name: member.name,
    email: member.email,
    phone: member.phone,
    tierSlug: member.tierSlug,
    tierName: current?.name ?? member.tierSlug,
    renewalTierSlug: renewalTierSlug(member),
    planChanged: member.nextTierSlug !== null && member.nextTierSlug !== member.tierSlug,
    status,
    words:
      pays.kind === "card" && pays.pausedUntil && status !== "cancelled"
        ? pausedInWords(member.paidUntil, pays.pausedUntil, today)
        : statusInWords(status, member.paidUntil, today),
    paidUntil: dayMonthYear(member.paidUntil),
    renewal,
    pays: {
      words: paysInWords(pays),
      byCard: pays.kind === "card",
      cardFailed: pays.kind === "card" && pays.cardFailed,
    },
    tiers,
    payments: payments.map((p) => ({
      id: p.id,
      kind: p.kind,
      reference: p.reference,
      tierName: p.tierName,
      amount: p.kind === "gift" ? "Gift" : formatRand(p.amountCents),
      startsOn: p.startsOn,
      endsOn: p.endsOn,
      note: p.note,
    })),
  };
}

export type AccountView = NonNullable<Awaited<ReturnType<typeof accountView>>>;

/**
 * The receipt for one of this member's orders, found by its reference: an order the member paid for a
 * period of theirs, or a renewal order made for them. Anyone else's reference is not found.
 */
export async function memberReceipt(db: Database, memberId: number, reference: string) {
  if (!/^[A-Za-z0-9-]{1,40}$/.test(reference)) return undefined;
  const theirs = db
    .select({ orderId: memberPeriods.orderId })
    .from(memberPeriods)
    .where(and(eq(memberPeriods.memberId, memberId), isNotNull(memberPeriods.orderId)));
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.reference, reference), or(eq(orders.memberId, memberId), inArray(orders.id, theirs))))
    .limit(1);
  if (!order) return undefined;
  const [period] = await db
    .select()
    .from(memberPeriods)
    .where(and(eq(memberPeriods.orderId, order.id), eq(memberPeriods.memberId, memberId)))
    .limit(1);
  return {
    reference: order.reference,
    item: order.itemName,
    amount: formatRand(order.amountCents),
    refunded: order.refundedCents > 0 ? formatRand(order.refundedCents) : null,
    status: order.status,
    paidAt: order.completedAt ?? order.createdAt,
    customer: `${order.customerFirstName} ${order.customerLastName}`.trim(),
    email: order.customerEmail,
    period: period ? { startsOn: period.startsOn, endsOn: period.endsOn } : null,
  };
}
