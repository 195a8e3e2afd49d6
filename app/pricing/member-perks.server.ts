/**
 * A member's perks as the pricing rule reads them (issue 40): her tier's perks while her membership is
 * active or due (decision 127), with how many of this calendar month's free tickets (South African
 * time) she has already taken. Nothing here prices anything: price-lines.ts does.
 */
import { and, eq, exists, gt, gte, inArray, lt, or, sql } from "drizzle-orm";
import { SA_OFFSET_MS } from "~/analytics/days";
import type { Database, Tx } from "~/db/client.server";
import { members, membershipTiers, orderLines, orders, stockHolds } from "~/db/schema";
import { findMember } from "~/memberships/member-row.server";
import { southAfricanDay, statusOn } from "~/memberships/periods";
import type { MemberPerks } from "./price-lines";
import { statusKeepsPerks } from "./perk-words";

/** The instants the South African calendar month holding `at` starts and ends (end excluded). */
export function southAfricanMonth(at: Date): { start: Date; end: Date } {
  const local = new Date(at.getTime() + SA_OFFSET_MS);
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth();
  return {
    start: new Date(Date.UTC(year, month, 1) - SA_OFFSET_MS),
    end: new Date(Date.UTC(year, month + 1, 1) - SA_OFFSET_MS),
  };
}

/**
 * Free tickets the member took in the month holding `now`: on orders made that month that are paid (or
 * partly refunded), or still pending while their hold is live. A fully refunded order, and one whose
 * hold ended unpaid, gives its free tickets back by no longer counting.
 */
export async function freeTicketsUsedThisMonth(db: Database | Tx, memberId: number, now: Date): Promise<number> {
  const { start, end } = southAfricanMonth(now);
  const liveHold = db
    .select({ one: sql`1` })
    .from(stockHolds)
    .where(and(eq(stockHolds.orderId, orders.id), eq(stockHolds.status, "held"), gt(stockHolds.expiresAt, now)));
  const [row] = await db
    .select({ used: sql<string>`coalesce(sum(${orderLines.perkFreeTickets}), 0)` })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(
      and(
        eq(orderLines.perkMemberId, memberId),
        gt(orderLines.perkFreeTickets, 0),
        gte(orders.createdAt, start),
        lt(orders.createdAt, end),
        or(inArray(orders.status, ["paid", "partially_refunded"]), and(eq(orders.status, "pending"), exists(liveHold))),
      ),
    );
  return Number(row?.used ?? 0);
}

/** The member's perks now, or null when she has none (lapsed, cancelled, unknown, or a tier without perks). */
export async function perksForMember(db: Database | Tx, memberId: number, now: Date): Promise<MemberPerks | null> {
  const member = await findMember(db, memberId);
  if (!member || !statusKeepsPerks(statusOn(member, southAfricanDay(now)))) return null;
  const [tier] = await db.select().from(membershipTiers).where(eq(membershipTiers.slug, member.tierSlug)).limit(1);
  if (!tier) return null;
  const perks: MemberPerks = {
    tierName: tier.name,
    percentOffEvents: tier.perkPercentOffEvents,
    percentOffProducts: tier.perkPercentOffProducts,
    allEventsFree: tier.perkAllEventsFree,
    freeTicketsPerMonth: tier.perkFreeTicketsPerMonth,
    freeTicketEvents:
      tier.perkFreeTicketEvents === "any" ? "any" : tier.perkFreeTicketEvents.map((id) => `event:${id}`),
    freeTicketsUsedThisMonth: 0,
  };
  const hasAny =
    perks.percentOffEvents > 0 || perks.percentOffProducts > 0 || perks.allEventsFree || perks.freeTicketsPerMonth > 0;
  if (!hasAny) return null;
  if (perks.freeTicketsPerMonth > 0 && !perks.allEventsFree)
    perks.freeTicketsUsedThisMonth = await freeTicketsUsedThisMonth(db, memberId, now);
  return perks;
}

/**
 * The member's perks for a checkout that will store its order in this same transaction (decision 128):
 * her member row is locked first, so two checkouts of hers count her free tickets one after the other,
 * and the second sees the first one's held line. The last free ticket goes to exactly one of them; the
 * other is priced in full, before anyone pays.
 */
export async function takeMemberPerks(tx: Tx, memberId: number, now: Date): Promise<MemberPerks | null> {
  await tx.select({ id: members.id }).from(members).where(eq(members.id, memberId)).for("update");
  return perksForMember(tx, memberId, now);
}
