import { or, eq, sql } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { rowFromDriver } from "~/db/driver-row.server";
import { orders, paymentWebhookEvents } from "~/db/schema";
import { isOrderId, type OrderRow } from "./orders.server";

/**
 * A provider's event counts once: its id is recorded in the transaction that applies it, and the order
 * it names is locked for the rest of that transaction.
 */

export type PaymentOutcome =
  | "paid"
  | "paid-needs-attention"
  | "refunded"
  | "refund-failed"
  | "duplicate"
  | "unchanged"
  | "unknown-order"
  | "amount-mismatch";

export interface EventRecord {
  /** Webhook id (or a synthetic id for a reconciliation) that makes the event count once. */
  eventId: string;
  provider: string;
  eventType: string;
  payload: unknown;
}

/** Records the event id; false when it was recorded before (a repeat delivery, or a concurrent one that won). */
export async function firstDelivery(tx: Tx, event: EventRecord): Promise<boolean> {
  return (await deliveryInsert(tx, event)).length > 0;
}

/** The insert that records an event id, not yet run: it returns the id only the first time. */
export function deliveryInsert(tx: Tx, event: EventRecord) {
  return tx
    .insert(paymentWebhookEvents)
    .values({
      webhookId: event.eventId,
      provider: event.provider,
      eventType: event.eventType,
      payload: event.payload as object,
    })
    .onConflictDoNothing({ target: paymentWebhookEvents.webhookId })
    .returning({ id: paymentWebhookEvents.webhookId });
}

export type OrderRef = { orderId?: string; checkoutId?: string; paymentId?: string };

/** Which orders an event may name: its order id, its checkout id, its payment id. */
function orderConditions(ref: OrderRef) {
  return [
    isOrderId(ref.orderId) ? eq(orders.id, ref.orderId) : undefined,
    ref.checkoutId ? eq(orders.yocoCheckoutId, ref.checkoutId) : undefined,
    ref.paymentId ? eq(orders.providerPaymentId, ref.paymentId) : undefined,
  ].filter((c) => c !== undefined);
}

/** The select that locks the order an event names, not yet run. */
function orderLock(tx: Tx, conditions: ReturnType<typeof orderConditions>) {
  return tx
    .select()
    .from(orders)
    .where(or(...conditions))
    .limit(1)
    .for("update");
}

/** The order an event is about, locked for the rest of the transaction. */
export async function lockOrder(tx: Tx, ref: OrderRef): Promise<OrderRow | undefined> {
  const conditions = orderConditions(ref);
  if (!conditions.length) return undefined;
  const [row] = await orderLock(tx, conditions);
  return row;
}

/**
 * `firstDelivery` and `lockOrder` in one statement, one trip to the database (decision 102). The
 * order is locked before the event id is written; a concurrent delivery of the same event waits on
 * that lock, then finds the id taken, as it did when the id came first.
 */
export async function firstDeliveryOfOrder(
  tx: Tx,
  event: EventRecord,
  ref: OrderRef,
): Promise<{ first: boolean; order?: OrderRow }> {
  const conditions = orderConditions(ref);
  if (!conditions.length) return { first: await firstDelivery(tx, event) };
  const result = await tx.execute(sql`
    with delivery as (${deliveryInsert(tx, event).getSQL()})
    select (select count(*) from delivery)::int as first_delivery, locked.*
    from (select 1) as one left join lateral (${orderLock(tx, conditions).getSQL()}) as locked on true`);
  const [row] = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  return { first: Number(row!.first_delivery) > 0, order: row!.id == null ? undefined : rowFromDriver(orders, row!) };
}

/** Records an event that changes no order (unknown types) so a repeat is recognised. */
export async function recordIgnoredEvent(db: Database, event: EventRecord): Promise<PaymentOutcome> {
  return db.transaction(async (tx) => ((await firstDelivery(tx, event)) ? "unchanged" : "duplicate"));
}
