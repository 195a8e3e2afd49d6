import { asc, eq } from "drizzle-orm";
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

export async function orderHistory(db: Database, orderId: string) {
  const rows = await db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(asc(orderEvents.at), asc(orderEvents.id));
  return rows.map((r) => ({ id: r.id, at: r.at.toISOString(), kind: r.kind, summary: r.summary }));
}
