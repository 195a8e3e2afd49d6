import { randomBytes, randomUUID } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orderLines, orders } from "~/db/schema";
import { rowFromDriver } from "~/db/driver-row.server";
import { placeHold, releaseHolds } from "~/stock/holds.server";
import type { CheckoutCustomer } from "./checkout-schema";
import { orderEventInsert, recordOrderEvent } from "./order-history.server";
import type { Sellable } from "./sellable.server";

export type OrderRow = typeof orders.$inferSelect;
export type OrderStatus = OrderRow["status"];

const REFERENCE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A short reference a person can read out on the phone, e.g. "HB-7KQ2M9XD". */
export function newReference(): string {
  const bytes = randomBytes(8);
  return `HB-${[...bytes].map((b) => REFERENCE_ALPHABET[b % REFERENCE_ALPHABET.length]).join("")}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isOrderId = (value: string | null | undefined): value is string => !!value && UUID.test(value);

/**
 * Stores a pending order, its line and (for limited stock or seats) a hold, all in one transaction,
 * before any payment provider is called. Throws OutOfStockError when the last units are gone.
 */
export async function createPendingOrder(
  db: Database,
  input: {
    item: Sellable;
    customer: CheckoutCustomer;
    provider: string;
    sessionId: string | null;
    now: Date;
    holdMinutes: number;
    /** holdClientKey() of the buyer's address, so one client cannot hold every unit unpaid. */
    clientKey: string | null;
    /** The member a renewal is for. */
    memberId?: number;
    /** Seats of a ticket or workshop (1 for anything else): the line's quantity, the hold's units and the amount. */
    quantity?: number;
  },
): Promise<OrderRow> {
  const { item, customer } = input;
  const quantity = input.quantity ?? 1;
  // The id is made here, so the order, its line and its history entry need nothing from one another.
  const orderId = randomUUID();
  const orderReference = newReference();
  const statements = (tx: Pick<Database, "insert">) =>
    [
      tx
        .insert(orders)
        .values({
          id: orderId,
          reference: orderReference,
          orderType: item.orderType,
          itemName: item.displayName,
          amountCents: item.amountCents * quantity,
          currency: "ZAR",
          status: "pending",
          customerFirstName: customer.firstName,
          customerLastName: customer.lastName,
          customerEmail: customer.email,
          customerPhone: customer.phone,
          customerAddress: customer.address,
          sessionId: input.sessionId,
          memberId: input.memberId ?? null,
          provider: input.provider,
          idempotencyKey: randomUUID(),
          createdAt: input.now,
          updatedAt: input.now,
        })
        .returning(),
      tx.insert(orderLines).values({ orderId, ...item.line, displayName: item.displayName, quantity, unitPriceCents: item.amountCents }),
      orderEventInsert(tx, orderId, "created", `Checkout started: ${item.displayName}, ${orderReference}`, input.now),
    ] as const;
  const stock = item.stock ?? (input.clientKey ? uncountedHold(item) : null);
  if (!stock) {
    // Nothing to count: the three inserts are one statement, one trip to the database (decision 092).
    // Its foreign keys are checked at the statement's end, when the order exists.
    const [insertOrder, insertLine, insertEvent] = statements(db);
    const result = await db.execute(
      sql`with created as (${insertOrder.getSQL()}), line as (${insertLine.getSQL()}), event as (${insertEvent.getSQL()}) select * from created`,
    );
    const [row] = (result as unknown as { rows: Record<string, unknown>[] }).rows;
    return rowFromDriver(orders, row!);
  }
  return db.transaction(async (tx) => {
    const [insertOrder, insertLine, insertEvent] = statements(tx);
    const [order] = await insertOrder;
    await insertLine;
    await insertEvent;
    await placeHold(tx, {
      orderId,
      key: stock.key,
      quantity,
      soldOutReason: stock.soldOutReason,
      itemName: item.displayName,
      now: input.now,
      minutes: input.holdMinutes,
      clientKey: input.clientKey,
    });
    return order!;
  });
}

/**
 * The hold an order of something without counted stock (a membership, an untracked product, an
 * uncapped ticket option) still takes: it holds no unit, but it counts against the buyer's budget of
 * unpaid holds, so one client cannot open an order and a provider checkout per POST (decision 108).
 * Its key names no stock ("unpaid:…"), so nothing that counts stock or seats ever reads it.
 */
function uncountedHold(item: Sellable): NonNullable<Sellable["stock"]> {
  const { catalogItemId, ticketOptionId, membershipSlug } = item.line;
  const what = catalogItemId ? `catalog:${catalogItemId}` : ticketOptionId ? `ticket:${ticketOptionId}` : `membership:${membershipSlug ?? ""}`;
  return { key: `unpaid:${what}`, limit: Number.POSITIVE_INFINITY, soldOutReason: "" };
}

export async function findOrder(db: Database, orderId: string): Promise<OrderRow | undefined> {
  if (!isOrderId(orderId)) return undefined;
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
  return row;
}

export async function findOrderByCheckoutId(db: Database, checkoutId: string): Promise<OrderRow | undefined> {
  if (!checkoutId || checkoutId.length > 200 || checkoutId.includes("\u0000")) return undefined;
  const [row] = await db.select().from(orders).where(eq(orders.yocoCheckoutId, checkoutId)).limit(1);
  return row;
}

export async function attachCheckout(db: Database, orderId: string, checkoutId: string, now: Date): Promise<void> {
  await db.update(orders).set({ yocoCheckoutId: checkoutId, updatedAt: now }).where(eq(orders.id, orderId));
}

const CLOSED_SUMMARY = {
  failed: "Payment failed; its unit is back on sale",
  cancelled: "Payment cancelled by the buyer; its unit is back on sale",
  expired: "Not paid in time; its unit is back on sale",
} as const;

/**
 * Ends an unpaid order (payment failed, cancelled, or the hold ran out) and gives its units back.
 * Only a pending order changes: a paid or refunded one is never closed by this.
 */
export async function closePendingOrder(
  db: Database,
  orderId: string,
  status: "failed" | "cancelled" | "expired",
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const closed = await tx
      .update(orders)
      .set({ status, updatedAt: now })
      .where(and(eq(orders.id, orderId), eq(orders.status, "pending")))
      .returning({ id: orders.id });
    await releaseHolds(tx, closed.map((c) => c.id));
    if (closed.length) await recordOrderEvent(tx, orderId, status, CLOSED_SUMMARY[status], now);
    return closed.length > 0;
  });
}

/** Pending orders whose holds ran out before `now`, oldest first: candidates for reconciliation. */
export async function pendingOrdersPastHold(db: Database, now: Date, holdMinutes: number, limit = 50): Promise<OrderRow[]> {
  const cutoff = new Date(now.getTime() - holdMinutes * 60_000);
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.status, "pending"), lt(orders.createdAt, cutoff)))
    .orderBy(orders.createdAt)
    .limit(limit);
}
