import { randomBytes, randomUUID } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { orderAccess, orderEvents, orderLines, orders, stockHolds } from "~/db/schema";
import { rowFromDriver } from "~/db/driver-row.server";
import { insertRowSelect } from "~/db/insert-row-select.server";
import { releaseHolds } from "~/stock/hold-sales.server";
import { HoldLimitError, placeHold, unpaidBudget, unpaidLimitReason } from "~/stock/holds.server";
import { countedHold, countedHoldRefusal } from "~/stock/counted-hold.server";
import type { CheckoutCustomer } from "./checkout-schema";
import type { BuyerAccessRow } from "./order-access.server";
import { orderEventInsert, recordOrderEvent } from "./order-history.server";
import type { Sellable } from "./sellable.server";
import {
  BelowMinimumChargeError,
  chargeIsPayable,
  FREE_PROVIDER,
  lineDiscountColumns,
  priceForCheckout,
} from "./order-pricing.server";
import { priceWithCode } from "~/pricing/discount-code-order.server";

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
 * Stores a pending order, its line, its hold and (with `buyer`) its binding to the buying browser, before
 * any payment provider is called. Throws OutOfStockError when the last units are gone, HoldLimitError
 * when this client already has as many unpaid as one buyer may.
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
    /** The browser that makes the checkout (newBuyerBinding), stored with the order. */
    buyer?: (orderId: string) => BuyerAccessRow;
    /** A key that names this order for good (a card subscription's charge): made at most once. */
    idempotencyKey?: string;
    /** Units already held for this buyer (a waiting-list offer): moved onto the order instead of a new hold. */
    claimHold?: (tx: Tx, orderId: string) => Promise<void>;
    /** A ticket line's holder per seat (attendeesForLines). */
    attendeeNames?: string[];
    /** The signed-in member whose perks price the order (issue 40), decided in its transaction (decision 128). */
    perksOf?: number;
    /** The discount code the buyer typed (issue 40): its use is taken in the order's transaction (decision 135). */
    discountCode?: string;
  },
): Promise<OrderRow> {
  const { item, customer } = input;
  const quantity = input.quantity ?? 1;
  // The id is made here, so the order, its line and its history entry need nothing from one another.
  const orderId = randomUUID();
  const orderReference = newReference();
  const order = {
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
    idempotencyKey: input.idempotencyKey ?? randomUUID(),
    createdAt: input.now,
    updatedAt: input.now,
  } satisfies typeof orders.$inferInsert;
  const line = {
    orderId,
    ...item.line,
    displayName: item.displayName,
    quantity,
    unitPriceCents: item.amountCents,
    // Left out rather than null: a null parameter would be stored as JSON null, not SQL NULL.
    ...(input.attendeeNames ? { attendeeNames: input.attendeeNames } : {}),
  };
  const created = `Checkout started: ${item.displayName}, ${orderReference}`;
  const access = input.buyer?.(orderId);

  // Perks and codes are priced under their own locks, and an offer's seats are moved, not counted: a transaction.
  const perksOrCode = input.perksOf !== undefined || !!input.discountCode;
  if (perksOrCode || (item.stock && input.claimHold)) {
    const stock = item.stock ?? { key: uncountedHoldKey(item), soldOutReason: `${item.displayName} is sold out.` };
    return db.transaction(async (tx) => {
      let priced: { order: typeof orders.$inferInsert; line: typeof orderLines.$inferInsert } = { order, line };
      if (perksOrCode) {
        const { price, codeId } = await priceWithCode(tx, input.discountCode, customer.email, input, (code) =>
          priceForCheckout(tx, [{ item, quantity }], input.perksOf, input.now, { lock: true, code }),
        );
        if (!chargeIsPayable(price.totalCents)) throw new BelowMinimumChargeError();
        priced = {
          order: {
            ...order,
            amountCents: price.totalCents,
            provider: price.totalCents === 0 ? FREE_PROVIDER : order.provider,
            discountCodeId: codeId,
          },
          line: { ...line, ...lineDiscountColumns(price, 0, input.perksOf) },
        };
      }
      // The four rows need nothing from one another's answers: sent together, one wait (decision 141).
      const [[row]] = await Promise.all([
        tx.insert(orders).values(priced.order).returning(),
        tx.insert(orderLines).values(priced.line),
        orderEventInsert(tx, orderId, "created", created, input.now),
        access ? tx.insert(orderAccess).values(access) : undefined,
      ]);
      if (input.claimHold) {
        await input.claimHold(tx, orderId);
        return row!;
      }
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
      return row!;
    });
  }

  // One statement, one trip to the database (decision 092), and no transaction to hold PGlite's one
  // connection while the event loop is busy (decision 108). Counted units are held in it too: the
  // statement takes the key's lock itself, so the lock is never held while an answer travels to the app
  // and back (decision 142). Its foreign keys are checked at the statement's end, when the order exists.
  const stock = item.stock;
  const budget = stock
    ? countedHold({ key: stock.key, clientKey: input.clientKey, quantity, now: input.now })
    : input.clientKey
      ? unpaidBudget(input.clientKey, uncountedHoldKey(item), quantity, input.now)
      : null;
  const source = budget ? sql`allowed` : sql`(select 1) as one`;
  const statement = sql`
    with ${budget ? sql`budget as (${budget.held}), allowed as (${budget.allowed}),` : sql``}
    created as (${insertRowSelect(orders, order, source)} returning *),
    line as (${insertRowSelect(orderLines, line, sql`created`)}),
    event as (${insertRowSelect(orderEvents, { orderId, kind: "created", summary: created, at: input.now }, sql`created`)})
    ${budget ? sql`, hold as (${insertRowSelect(stockHolds, budget.hold(orderId, input.holdMinutes), sql`created`)})` : sql``}
    ${access ? sql`, access as (${insertRowSelect(orderAccess, access, sql`created`)})` : sql``}
    select ${budget ? sql`budget.item as held_item, budget.total as held_total,` : sql``}
      ${stock ? sql`budget.units as held_units, budget.taken as held_taken,` : sql``} created.*
    from ${budget ? sql`budget left join created on true` : sql`created`}`;
  const result = await db.execute(statement);
  const [row] = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  if (stock && (!row || row.id == null)) {
    throw countedHoldRefusal(
      { units: row?.held_units, taken: row?.held_taken, item: row?.held_item, total: row?.held_total },
      { itemName: item.displayName, soldOutReason: stock.soldOutReason, quantity, minutes: input.holdMinutes },
    );
  }
  if (budget && (!row || row.id == null)) {
    throw new HoldLimitError(
      unpaidLimitReason(
        item.displayName,
        Number(row?.held_item ?? 0),
        Number(row?.held_total ?? 0),
        quantity,
        input.holdMinutes,
      ),
    );
  }
  return rowFromDriver(orders, row!);
}

/**
 * The hold key of an order of something without counted stock (a membership, an untracked product,
 * an uncapped ticket option). Its hold holds no unit, but counts against the buyer's budget of unpaid
 * holds, so one client cannot open an order and a provider checkout per POST (decision 108). It names
 * no stock ("unpaid:…"), so nothing that counts stock or seats ever reads it.
 */
export function uncountedHoldKey(item: Sellable): string {
  const { catalogItemId, ticketOptionId, membershipSlug } = item.line;
  const what = catalogItemId
    ? `catalog:${catalogItemId}`
    : ticketOptionId
      ? `ticket:${ticketOptionId}`
      : `membership:${membershipSlug ?? ""}`;
  return `unpaid:${what}`;
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
    await releaseHolds(
      tx,
      closed.map((c) => c.id),
    );
    if (closed.length) await recordOrderEvent(tx, orderId, status, CLOSED_SUMMARY[status], now);
    return closed.length > 0;
  });
}

/** Pending orders whose holds ran out before `now`, oldest first: candidates for reconciliation. */
export async function pendingOrdersPastHold(
  db: Database,
  now: Date,
  holdMinutes: number,
  limit = 50,
): Promise<OrderRow[]> {
  const cutoff = new Date(now.getTime() - holdMinutes * 60_000);
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.status, "pending"), lt(orders.createdAt, cutoff)))
    .orderBy(orders.createdAt)
    .limit(limit);
}
