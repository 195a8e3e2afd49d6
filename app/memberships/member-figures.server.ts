import { and, count, eq, gte, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { memberPeriods, members, memberSubscriptions, membershipTiers } from "~/db/schema";
import { notPausedByCard } from "./paused-cards.server";
import { addMonths, GRACE_DAYS } from "./periods";

/**
 * Monthly recurring revenue, honestly (issue 41): what active and due members pay a month at their
 * tier's price now; due members are "at risk" (their payment has not come), with their own sum. Lapsed
 * and cancelled members pay nothing more, and a member whose card charges are paused pays nothing in
 * the pause (decision 130). One aggregate on members_status_idx.
 */
export interface RecurringRevenue {
  active: number;
  mrrCents: number;
  atRisk: number;
  atRiskCents: number;
}

export async function recurringRevenue(db: Database): Promise<RecurringRevenue> {
  // A card member pays what her subscription agreed, which a later change of the tier's price does not move.
  const price = sql`coalesce(
    (select ${memberSubscriptions.amountCents} from ${memberSubscriptions}
      where ${memberSubscriptions.memberId} = ${members.id} and ${memberSubscriptions.status} = 'active'
      order by ${memberSubscriptions.id} desc limit 1),
    ${membershipTiers.priceCents}, 0)`;
  const [row] = await db
    .select({
      active: sql<string>`count(*) filter (where ${members.status} = 'active')`,
      cents: sql<string | null>`sum(${price})`,
      atRisk: sql<string>`count(*) filter (where ${members.status} = 'due')`,
      atRiskCents: sql<string | null>`sum(${price}) filter (where ${members.status} = 'due')`,
    })
    .from(members)
    .leftJoin(membershipTiers, eq(membershipTiers.slug, members.tierSlug))
    .where(and(inArray(members.status, ["active", "due"]), notPausedByCard(db)));
  return {
    active: Number(row?.active ?? 0),
    mrrCents: Number(row?.cents ?? 0),
    atRisk: Number(row?.atRisk ?? 0),
    atRiskCents: Number(row?.atRiskCents ?? 0),
  };
}

export interface MembersMonth {
  /** "2025-03" */
  month: string;
  joined: number;
  renewed: number;
  lapsed: number;
}

/** The South African calendar month of a timestamp column (South Africa keeps +02:00 all year). */
const saMonth = (column: unknown) =>
  sql<string>`to_char((${column} at time zone 'UTC') + interval '2 hours', 'YYYY-MM')`;

/**
 * Members by month for the `months` South African months up to `today`'s: joined (by join day),
 * renewed (a paid month that starts after the join day, by its first day) and lapsed (members lapsed
 * now, by the day they lapsed: paid-until plus the grace week). Three grouped counts, each over one
 * year of rows, so 10,000 members stay fast.
 */
export async function membersByMonth(db: Database, today: string, months = 12): Promise<MembersMonth[]> {
  const first = `${addMonths(today.slice(0, 7) + "-01", -(months - 1))}`;
  const since = new Date(`${first}T00:00:00+02:00`);
  const joinMonth = saMonth(members.joinedAt);
  const renewMonth = sql<string>`to_char(${memberPeriods.startsOn}, 'YYYY-MM')`;
  const lapseDay = sql`(${members.paidUntil} + ${sql.raw(String(GRACE_DAYS))})`;
  const lapseMonth = sql<string>`to_char(${lapseDay}, 'YYYY-MM')`;
  const [joined, renewed, lapsed] = await Promise.all([
    db.select({ month: joinMonth, n: count() }).from(members).where(gte(members.joinedAt, since)).groupBy(joinMonth),
    db
      .select({ month: renewMonth, n: count() })
      .from(memberPeriods)
      .innerJoin(members, eq(members.id, memberPeriods.memberId))
      .where(
        and(
          eq(memberPeriods.kind, "payment"),
          gte(memberPeriods.startsOn, first),
          sql`${memberPeriods.startsOn} > ((${members.joinedAt} at time zone 'UTC') + interval '2 hours')::date`,
        ),
      )
      .groupBy(renewMonth),
    db
      .select({ month: lapseMonth, n: count() })
      .from(members)
      .where(and(eq(members.status, "lapsed"), sql`${lapseDay} >= ${first}::date`))
      .groupBy(lapseMonth),
  ]);
  const rows: MembersMonth[] = [];
  for (let i = 0; i < months; i++) {
    rows.push({ month: addMonths(first, i).slice(0, 7), joined: 0, renewed: 0, lapsed: 0 });
  }
  const byMonth = new Map(rows.map((r) => [r.month, r]));
  for (const r of joined) if (byMonth.has(r.month)) byMonth.get(r.month)!.joined = Number(r.n);
  for (const r of renewed) if (byMonth.has(r.month)) byMonth.get(r.month)!.renewed = Number(r.n);
  for (const r of lapsed) if (byMonth.has(r.month)) byMonth.get(r.month)!.lapsed = Number(r.n);
  return rows;
}
