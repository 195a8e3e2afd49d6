import { recurringRevenue, type RecurringRevenue } from "./member-figures.server";
import { and, asc, count, desc, eq, inArray, lte, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import { emailOutbox, members, membershipTiers } from "~/db/schema";
import { MEMBER_STATUSES, SOON, SOON_DAYS, type MemberListQuery } from "./member-list-query";
import { memberPayments } from "./members.server";
import { addDays, type MemberStatus } from "./periods";

export const MEMBERS_PAGE_SIZE = 25;

const like = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The search box: an email address (or the start of one) is looked up by its prefix on the unique
 * email index; anything else is any part of the name or email, in the stored lower-case `search` column.
 */
function searchCondition(raw: string): SQL | undefined {
  const q = raw.trim().slice(0, 100).toLowerCase();
  if (!q) return undefined;
  if (q.includes("@") && !q.startsWith("@")) return sql`${members.email} like ${`${like(q)}%`}`;
  return sql`${members.search} like ${`%${like(q)}%`}`;
}

/**
 * Members whose renewal falls within the week from `today` (a South African day): active ones paid until
 * a day in it, and due ones, who lapse within it. Read from paid_until, so a status the daily job has not
 * moved yet still counts.
 */
export const renewingSoon = (today: string) =>
  and(inArray(members.status, ["active", "due"]), lte(members.paidUntil, addDays(today, SOON_DAYS)))!;

export function memberListConditions(query: MemberListQuery, today: string): SQL | undefined {
  return and(
    searchCondition(query.q),
    query.tier ? eq(members.tierSlug, query.tier) : undefined,
    query.status === SOON ? renewingSoon(today) : query.status ? eq(members.status, query.status) : undefined,
  );
}

/**
 * Members a page at a time, the next to pay first: with a status filter, members_status_idx
 * (status, paid_until) gives both the rows and their order.
 */
export async function listMembersForAdmin(db: Database, query: MemberListQuery, today: string) {
  const where = memberListConditions(query, today);
  const [{ total }] = await db.select({ total: count() }).from(members).where(where);
  const pages = Math.max(1, Math.ceil(total / MEMBERS_PAGE_SIZE));
  const page = Math.min(Math.max(1, query.page), pages);
  const rows = await db
    .select({
      id: members.id,
      name: members.name,
      email: members.email,
      tierSlug: members.tierSlug,
      tierName: membershipTiers.name,
      status: members.status,
      paidUntil: members.paidUntil,
    })
    .from(members)
    .leftJoin(membershipTiers, eq(membershipTiers.slug, members.tierSlug))
    .where(where)
    .orderBy(asc(members.paidUntil), asc(members.id))
    .limit(MEMBERS_PAGE_SIZE)
    .offset((page - 1) * MEMBERS_PAGE_SIZE);
  return { total, page, pages, members: rows.map((r) => ({ ...r, tierName: r.tierName ?? r.tierSlug })) };
}

/** Rows for the CSV export of a filtered list, in batches, in the list's order. */
export async function* memberExportRows(db: Database, query: MemberListQuery, today: string, batch = 2000) {
  const where = memberListConditions(query, today);
  const nextTier = alias(membershipTiers, "next_tier");
  for (let offset = 0; ; offset += batch) {
    const rows = await db
      .select({
        member: members,
        tierName: membershipTiers.name,
        tierPriceCents: membershipTiers.priceCents,
        nextTierName: nextTier.name,
      })
      .from(members)
      .leftJoin(membershipTiers, eq(membershipTiers.slug, members.tierSlug))
      .leftJoin(nextTier, eq(nextTier.slug, members.nextTierSlug))
      .where(where)
      .orderBy(asc(members.paidUntil), asc(members.id))
      .limit(batch)
      .offset(offset);
    yield* rows;
    if (rows.length < batch) return;
  }
}

export interface MemberFigures {
  counts: Record<MemberStatus, number>;
  total: number;
  /** Members whose status is active (decision 088). */
  active: number;
  /** Monthly recurring revenue: active and due members' tier prices now, in cents (member-figures.server.ts). */
  mrrCents: number;
  /** Due members, in the MRR but at risk, and their sum. */
  atRisk: number;
  atRiskCents: number;
}

/**
 * Counts per status (a count grouped on members_status_idx, no join) and the active members' MRR
 * (the same aggregate as the dashboard's), side by side.
 */
export async function memberFigures(db: Database): Promise<MemberFigures> {
  const [rows, active] = await Promise.all([
    db.select({ status: members.status, n: count() }).from(members).groupBy(members.status),
    activeMemberFigures(db),
  ]);
  const counts = Object.fromEntries(MEMBER_STATUSES.map((s) => [s, 0])) as Record<MemberStatus, number>;
  for (const r of rows) if ((MEMBER_STATUSES as readonly string[]).includes(r.status)) counts[r.status] = Number(r.n);
  return {
    counts,
    total: MEMBER_STATUSES.reduce((sum, s) => sum + counts[s], 0),
    active: active.active,
    mrrCents: active.mrrCents,
    atRisk: active.atRisk,
    atRiskCents: active.atRiskCents,
  };
}

/** The dashboard's member figures: active members, MRR and what of it is at risk (one aggregate). */
export const activeMemberFigures = (db: Database): Promise<RecurringRevenue> => recurringRevenue(db);

/** Every tier, hidden ones too (a member may be on a tier no longer sold), for the tier filter. */
export function listTierChoices(db: Database) {
  return db
    .select({ slug: membershipTiers.slug, name: membershipTiers.name, priceCents: membershipTiers.priceCents })
    .from(membershipTiers)
    .orderBy(asc(membershipTiers.sortOrder), asc(membershipTiers.name));
}

/** A member's id from the URL: digits only, or null (a 404). */
export function parseMemberId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,8}$/.test(raw)) return null;
  return Number(raw);
}

/** One member with everything their page shows: tiers by name, payments and gifts, and the emails sent to them. */
export async function findMemberForAdmin(db: Database, id: number) {
  const [found] = await db
    .select({ member: members, tierName: membershipTiers.name, tierPriceCents: membershipTiers.priceCents })
    .from(members)
    .leftJoin(membershipTiers, eq(membershipTiers.slug, members.tierSlug))
    .where(eq(members.id, id));
  if (!found) return null;
  const { member } = found;
  const [payments, emails, nextTier] = await Promise.all([
    memberPayments(db, id),
    db
      .select({
        id: emailOutbox.id,
        subject: emailOutbox.subject,
        status: emailOutbox.status,
        createdAt: emailOutbox.createdAt,
        sentAt: emailOutbox.sentAt,
      })
      .from(emailOutbox)
      .where(eq(emailOutbox.memberId, id))
      .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id)),
    member.nextTierSlug && member.nextTierSlug !== member.tierSlug
      ? db
          .select({ name: membershipTiers.name })
          .from(membershipTiers)
          .where(eq(membershipTiers.slug, member.nextTierSlug))
      : Promise.resolve([]),
  ]);
  return {
    member,
    tierName: found.tierName ?? member.tierSlug,
    tierPriceCents: found.tierPriceCents,
    nextTierName: nextTier[0]?.name ?? (member.nextTierSlug !== member.tierSlug ? member.nextTierSlug : null),
    payments,
    emails,
  };
}
