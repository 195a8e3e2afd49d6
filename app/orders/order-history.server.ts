import { asc, eq, is, sql, SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orderEvents } from "~/db/schema";

type Executor = Pick<Database, "insert">;

export type OrderEventKind =
  | "created"
  | "paid"
  | "failed"
  | "cancelled"
  | "expired"
  | "webhook"
  | "email"
  | "tickets"
  | "fulfilled"
  | "refund"
  | "attention"
  | "note";

/** One line in an order's history, written in the transaction that made the change. */
export async function recordOrderEvent(
  tx: Executor,
  orderId: string,
  kind: OrderEventKind,
  summary: string,
  at: Date,
  detail?: Record<string, unknown>,
): Promise<void> {
  await orderEventInsert(tx, orderId, kind, summary, at, detail);
}

/** The insert `recordOrderEvent` runs, not yet run (for a statement that stores an order with it). */
export function orderEventInsert(
  tx: Executor,
  orderId: string,
  kind: OrderEventKind,
  summary: string,
  at: Date,
  detail?: Record<string, unknown>,
) {
  return tx.insert(orderEvents).values({ orderId, kind, summary: summary.slice(0, 500), at, detail: detail ?? null });
}

/**
 * One line of an order's history as a part of `orderHistoryInsert`. The detail may be SQL (built from
 * a CTE's row); with `from`, the line is selected from that source: one line per row it yields, so
 * none when it yields none. `at` is the shop's clock (context clock / APP_NOW), as for every other
 * line, not the database's now().
 */
export function orderHistoryEntry(entry: {
  orderId: string;
  kind: OrderEventKind;
  summary: string;
  at: Date;
  detail?: Record<string, unknown> | SQL | null;
  from?: SQL;
}): SQL {
  const at = sql`${sql.param(entry.at, orderEvents.at)}::timestamptz`;
  const detail = is(entry.detail, SQL)
    ? entry.detail
    : entry.detail
      ? sql`${sql.param(entry.detail, orderEvents.detail)}::jsonb`
      : sql`null::jsonb`;
  const from = entry.from ? sql` from ${entry.from}` : sql``;
  return sql`select ${entry.orderId}::uuid, ${at}, ${entry.kind}::text, ${entry.summary.slice(0, 500)}::text, ${detail}${from}`;
}

/**
 * Lines of history in one insert, in the order given: their ids, which order lines of the same
 * time, follow it. Several writes then make one statement, one trip to the database (decision 102).
 */
export function orderHistoryInsert(entries: SQL[]): SQL {
  const numbered = entries.map(
    (entry, i) =>
      sql`select ${sql.raw(String(i))} as position, line.* from (${entry}) as line(order_id, at, kind, summary, detail)`,
  );
  return sql`insert into ${orderEvents} (order_id, at, kind, summary, detail)
    select order_id, at, kind, summary, detail from (${sql.join(numbered, sql` union all `)}) as lines order by position`;
}

export async function orderHistory(db: Database, orderId: string) {
  const rows = await db
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.at), asc(orderEvents.id));
  return rows.map((r) => ({ id: r.id, at: r.at.toISOString(), kind: r.kind, summary: r.summary }));
}
