/**
 * How often a discount code has been used (issue 40): counted from the orders that name it, never kept
 * as a tally. An order counts while it is paid (or partly refunded), or pending inside its hold's time or
 * while its seats are still held (a waiting-list offer's hold may outlast the hold time, decision 139);
 * one whose hold ended unpaid, or that was refunded in full, stops counting and so gives its use back.
 */
import { and, eq, gt, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { orders, stockHolds } from "~/db/schema";

/** The order still has seats or units held for it. */
const liveHoldOf = (now: Date): SQL =>
  sql`exists (select 1 from ${stockHolds} where ${stockHolds.orderId} = ${orders.id} and ${stockHolds.status} = 'held'
    and ${stockHolds.expiresAt} > ${sql.param(now, stockHolds.expiresAt)}::timestamptz)`;

/** The orders that hold a use of their code at `now`, with holds lasting `holdMinutes`. */
export function orderHoldsAUse(now: Date, holdMinutes: number): SQL {
  const heldSince = new Date(now.getTime() - holdMinutes * 60_000);
  return or(
    inArray(orders.status, ["paid", "partially_refunded"]),
    and(eq(orders.status, "pending"), or(gt(orders.createdAt, heldSince), liveHoldOf(now))),
  )!;
}

/** Uses of one code, in all and by this email (case-insensitive). */
export async function codeUsesNow(
  db: Database | Tx,
  codeId: number,
  email: string,
  now: Date,
  holdMinutes: number,
): Promise<{ total: number; byEmail: number }> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      byEmail: sql<number>`(count(*) filter (where lower(${orders.customerEmail}) = ${email.trim().toLowerCase()}))::int`,
    })
    .from(orders)
    .where(and(eq(orders.discountCodeId, codeId), orderHoldsAUse(now, holdMinutes)));
  return { total: Number(row?.total ?? 0), byEmail: Number(row?.byEmail ?? 0) };
}

/** Per code: its uses now, and the revenue of its paid orders (what they were charged, less refunds). */
const PAID_REVENUE = sql`${orders.amountCents} - ${orders.refundedCents}`;

export async function codeUsesAndRevenue(
  db: Database,
  now: Date,
  holdMinutes: number,
): Promise<Map<number, { uses: number; revenueCents: number }>> {
  const rows = await db
    .select({
      codeId: orders.discountCodeId,
      uses: sql<number>`(count(*) filter (where ${orderHoldsAUse(now, holdMinutes)}))::int`,
      revenue: sql<string>`coalesce(sum(${PAID_REVENUE}) filter (where ${orders.status} in ('paid', 'partially_refunded')), 0)`,
    })
    .from(orders)
    .where(sql`${orders.discountCodeId} is not null`)
    .groupBy(orders.discountCodeId);
  return new Map(rows.map((r) => [r.codeId!, { uses: Number(r.uses), revenueCents: Number(r.revenue) }]));
}
