import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { AppConfig } from "~/config.server";
import type { Database, Tx } from "~/db/client.server";
import { rowFromDriver } from "~/db/driver-row.server";
import { orders, paymentWebhookEvents, refunds } from "~/db/schema";
import { formatRand } from "~/lib/money";
import { shopContact, shopContactFrom } from "~/email/shop-contact.server";
import { currentSiteSettings } from "~/settings/site-settings.server";
import { applyMembershipPayment } from "~/memberships/members.server";
import { convertHolds, holdsToConvert, releaseHolds, returnUnits } from "~/stock/hold-sales.server";
import { issueTickets, ticketLinesOf, voidOrderTickets } from "~/tickets/issue.server";
import { queueOrderEmail, queuedOrderEmailStatement, type OrderEmail } from "./order-email-queue.server";
import { settleLineRefund } from "./line-refunds.server";
import { customerConfirmationEmail, ownerAttentionNotice, ownerOrderNotice, refundEmail } from "./order-emails.server";
import { orderPageAccessUpsert, orderPageUrl } from "./order-access.server";
import { orderHistoryEntry, orderHistoryInsert, recordOrderEvent } from "./order-history.server";
import { isOrderId, type OrderRow } from "./orders.server";
import { providerName } from "./payment-words";

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

export interface MailSettingsForOrders {
  siteUrl: string;
  /** OWNER_EMAIL: used when the owner stored no notification address in /admin/settings. */
  ownerEmail: string;
  /** SESSION_SECRET: signs the link to the order's private page that the confirmation carries (decision 106). */
  secret: string;
}

export const mailSettingsForOrders = (
  config: Pick<AppConfig, "siteUrl" | "sessionSecret" | "mail">,
): MailSettingsForOrders => ({
  siteUrl: config.siteUrl,
  ownerEmail: config.mail.ownerEmail,
  secret: config.sessionSecret,
});

/**
 * Starts a statement (a Drizzle query runs when awaited) without waiting for its answer; the caller
 * awaits it later with the rest. A failure before then is not reported as unhandled: the later await
 * sees it and the transaction rolls back.
 */
function started<T>(statement: PromiseLike<T>): Promise<T> {
  const running = Promise.resolve(statement);
  running.catch(() => {});
  return running;
}

/** Records the event id; false when it was recorded before (a repeat delivery, or a concurrent one that won). */
async function firstDelivery(tx: Tx, event: EventRecord): Promise<boolean> {
  return (await deliveryInsert(tx, event)).length > 0;
}

/** The insert that records an event id, not yet run: it returns the id only the first time. */
function deliveryInsert(tx: Tx, event: EventRecord) {
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

type OrderRef = { orderId?: string; checkoutId?: string; paymentId?: string };

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
async function lockOrder(tx: Tx, ref: OrderRef): Promise<OrderRow | undefined> {
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
async function firstDeliveryOfOrder(
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

/** Where a payment event came from, in the order's history. */
/** Who confirmed a payment, in the owner's words (the event's own name stays in payment_events). */
const source = (order: Pick<OrderRow, "provider">) => providerName(order.provider);

/** Orders that are paid, in whole or in part still: what a repeated or late payment event must not touch. */
const SETTLED = new Set<OrderRow["status"]>(["paid", "refunded", "partially_refunded"]);

/**
 * A completed payment, from a verified webhook or from asking the provider. In one transaction:
 * the event id is recorded (so a repeat or a concurrent duplicate does nothing), the order becomes
 * paid with its provider ids, its holds become sales, a ticket or workshop order gets one ticket per
 * seat, and the emails are queued.
 * A failed, cancelled or expired order becomes paid (the money was taken); if its unit was sold to
 * someone else in the meantime, it is paid but flagged for the owner and issued no ticket (decision 085).
 */
export async function recordPayment(
  db: Database,
  input: {
    event: EventRecord;
    orderId?: string;
    checkoutId?: string;
    paymentId: string | null;
    amountCents: number;
    now: Date;
    mail: MailSettingsForOrders;
  },
): Promise<{ outcome: PaymentOutcome; order?: OrderRow }> {
  // The owner's stored contact details and notification address (/admin/settings), else the defaults;
  // read before the transaction, which holds PGlite's one connection until it ends.
  const settings = await currentSiteSettings(db, input.mail.ownerEmail);
  return db.transaction(async (tx) => {
    // The transaction holds PGlite, the one connection, and each wait for an answer costs a trip to
    // the main thread, so statements that need nothing from one another go together (decision 092).
    // Locking the order and recording the event (one statement), then reading its holds, run in that
    // order all the same.
    const knownOrderId = isOrderId(input.orderId) ? input.orderId : undefined;
    // Its ticket lines too, which the order's type may not need (decision 141).
    const [{ first, order }, holds, ticketLines] = await Promise.all([
      firstDeliveryOfOrder(tx, input.event, { orderId: input.orderId, checkoutId: input.checkoutId }),
      knownOrderId ? holdsToConvert(tx, knownOrderId) : undefined,
      knownOrderId ? ticketLinesOf(tx, knownOrderId) : undefined,
    ]);
    if (!first) return { outcome: "duplicate" as const };
    if (!order) return { outcome: "unknown-order" as const };
    if (SETTLED.has(order.status)) {
      await recordOrderEvent(
        tx,
        order.id,
        "webhook",
        `Payment confirmed again by ${source(order)}: nothing changed`,
        input.now,
      );
      return { outcome: "unchanged" as const, order };
    }
    if (input.amountCents !== order.amountCents) {
      console.error(
        `[payments] order ${order.id}: payment of ${input.amountCents} cents does not match the ` +
          `order's ${order.amountCents}; left for the owner`,
      );
      await tx
        .update(orders)
        .set({
          needsAttention: true,
          attentionReason: `A payment of ${formatRand(input.amountCents)} arrived for this ${formatRand(order.amountCents)} order.`,
          updatedAt: input.now,
        })
        .where(eq(orders.id, order.id));
      await recordOrderEvent(
        tx,
        order.id,
        "attention",
        `Payment of ${formatRand(input.amountCents)} does not match the order`,
        input.now,
      );
      return { outcome: "amount-mismatch" as const, order };
    }
    const wasClosed = order.status !== "pending";
    const { unavailable } = await convertHolds(tx, order.id, input.now, order.id === knownOrderId ? holds : undefined);
    const attention = unavailable.length > 0;
    const changes = {
      status: "paid" as const,
      completedAt: input.now,
      updatedAt: input.now,
      providerPaymentId: input.paymentId ?? order.providerPaymentId,
      yocoCheckoutId: order.yocoCheckoutId ?? input.checkoutId ?? null,
      ...(attention && {
        needsAttention: true,
        attentionReason:
          "Paid after its hold was released, and the last unit had been sold to someone else. Refund it, or offer another piece or date.",
      }),
    };
    // The order as the update leaves it (the row is locked: nothing else changes it meanwhile).
    const paid: OrderRow = { ...order, ...changes };
    const update = sql`paid_order as (${tx.update(orders).set(changes).where(eq(orders.id, order.id)).getSQL()})`;
    const paidEntry = orderHistoryEntry({
      orderId: order.id,
      kind: "paid",
      summary: `Payment confirmed by ${source(order)}${wasClosed ? ` after it was ${order.status}` : ""}`,
      at: input.now,
      detail: { paymentId: input.paymentId },
    });
    // The order's writes and its emails make one statement, one trip to the database while the
    // transaction holds a connection (decision 102). Tickets and a membership's month come between
    // them: they read the order as paid, and their history follows the payment's.
    const inBetween =
      !attention && (paid.orderType === "ticket" || paid.orderType === "workshop" || paid.orderType === "membership");
    const paymentWritten = inBetween
      ? started(tx.execute(sql`with ${update} ${orderHistoryInsert([paidEntry])}`))
      : undefined;
    const contact = shopContactFrom(settings);
    const ownerEmail = settings.ownerEmail;
    // Tickets are issued with the payment, so the confirmation that carries them is queued with it too;
    // a late payment with no seat left gets none.
    const tickets = attention
      ? []
      : await issueTickets(tx, paid, input.now, order.id === knownOrderId ? ticketLines : undefined);
    // A membership payment gives its member a month, once, in this same transaction (decision 086).
    const member = paid.orderType === "membership" ? await applyMembershipPayment(tx, paid, input.now) : undefined;
    const orderPage = orderPageUrl(input.mail.siteUrl, input.mail.secret, order.id);
    const confirmation = await customerConfirmationEmail(paid, input.mail.siteUrl, {
      tickets,
      contact,
      now: input.now,
      orderPage,
    });
    const email = (queued: OrderEmail, name: string) => queuedOrderEmailStatement(tx, queued, name, input.now);
    // A membership's confirmation belongs to the member's email history too.
    const emails = [
      email({ ...confirmation, memberId: member?.id }, "confirmation"),
      email(ownerOrderNotice(paid, ownerEmail, contact, tickets.length), "owner_notice"),
    ];
    const entries = [...(paymentWritten ? [] : [paidEntry]), ...emails.map((e) => e.historyEntry)];
    if (attention) {
      const reason = `${paid.attentionReason} Open the order to refund it in one click: ${input.mail.siteUrl}/admin/orders/${order.id}`;
      const notice = email(ownerAttentionNotice(paid, ownerEmail, reason, contact), "attention_notice");
      emails.push(notice);
      entries.push(
        orderHistoryEntry({
          orderId: order.id,
          kind: "attention",
          summary: "Needs attention: no unit was left for this late payment",
          at: input.now,
        }),
        notice.historyEntry,
      );
    }
    // The private page the confirmation links to is recorded in the same statement.
    const pageAccess = sql`order_page as (${orderPageAccessUpsert(tx, input.mail.secret, order.id, input.now).getSQL()})`;
    const ctes = [...(paymentWritten ? [] : [update]), pageAccess, ...emails.map((e) => e.cte)];
    await Promise.all([
      paymentWritten,
      tx.execute(sql`with ${sql.join(ctes, sql`, `)} ${orderHistoryInsert(entries)}`),
    ]);
    return { outcome: attention ? ("paid-needs-attention" as const) : ("paid" as const), order: paid };
  });
}

interface RefundEventInput {
  event: EventRecord;
  /** The provider's refund id (`rfd_…`). */
  refundId?: string;
  checkoutId?: string;
  paymentId?: string;
  orderId?: string;
  amountCents?: number;
  now: Date;
  mail?: MailSettingsForOrders;
}

/** The refund an event is about: by the provider's refund id, else the oldest still waiting on the order. */
async function lockRefund(tx: Tx, orderId: string, providerRefundId: string | undefined) {
  const waiting = and(eq(refunds.orderId, orderId), inArray(refunds.status, ["requested", "pending"]));
  if (providerRefundId) {
    const [byId] = await tx
      .select()
      .from(refunds)
      .where(and(eq(refunds.orderId, orderId), eq(refunds.providerRefundId, providerRefundId)))
      .for("update");
    if (byId) return byId;
  }
  const [oldest] = await tx
    .select()
    .from(refunds)
    .where(waiting)
    .orderBy(asc(refunds.createdAt))
    .limit(1)
    .for("update");
  return oldest;
}

/**
 * A refund that went through. One the owner asked for in the admin completes her request (the
 * amount she chose, units back on sale if she asked); one made elsewhere (the provider's own
 * dashboard) refunds what the event says. A fully refunded order is `refunded`, otherwise
 * `partially_refunded`. A refund that overtakes its payment event marks the order refunded straight
 * away and frees its hold, and the late payment then changes nothing.
 */
export async function recordRefund(
  db: Database,
  input: RefundEventInput,
): Promise<{ outcome: PaymentOutcome; order?: OrderRow }> {
  return db.transaction(async (tx) => {
    if (!(await firstDelivery(tx, input.event))) return { outcome: "duplicate" as const };
    const order = await lockOrder(tx, {
      orderId: input.orderId,
      checkoutId: input.checkoutId,
      paymentId: input.paymentId,
    });
    if (!order) return { outcome: "unknown-order" as const };
    const refund = await lockRefund(tx, order.id, input.refundId);
    if (refund?.status === "succeeded" || (!refund && order.status === "refunded")) {
      await recordOrderEvent(tx, order.id, "webhook", "Refund confirmed again: nothing changed", input.now);
      return { outcome: "unchanged" as const, order };
    }
    const amount = refund?.amountCents ?? input.amountCents ?? order.amountCents - order.refundedCents;
    const refundedCents = Math.min(order.amountCents, order.refundedCents + amount);
    const [updated] = await tx
      .update(orders)
      .set({
        status: refundedCents >= order.amountCents ? "refunded" : "partially_refunded",
        refundedCents,
        // A fully refunded order has been dealt with.
        ...(refundedCents >= order.amountCents && { needsAttention: false }),
        updatedAt: input.now,
        providerPaymentId: order.providerPaymentId ?? input.paymentId ?? null,
      })
      .where(eq(orders.id, order.id))
      .returning();
    if (refund) {
      await tx
        .update(refunds)
        .set({
          status: "succeeded",
          completedAt: input.now,
          providerRefundId: refund.providerRefundId ?? input.refundId ?? null,
        })
        .where(eq(refunds.id, refund.id));
    }
    if (order.status !== "paid" && order.status !== "partially_refunded") await releaseHolds(tx, [order.id]);
    let summary = `Refunded ${formatRand(amount)}${refund ? "" : " (made at the payment provider)"}`;
    // A refund of some units of a line voids and returns only those (issue 39).
    const byLine = refund ? await settleLineRefund(tx, refund, input.now) : null;
    if (byLine) summary += byLine.summary;
    else if (refund?.restock && order.status !== "pending") {
      const units = await returnUnits(tx, order.id, input.now);
      if (units) summary += `; ${units === 1 ? "the unit is" : `${units} units are`} back on sale`;
    }
    // A ticket whose seat went back on sale, or whose money went back, no longer admits.
    if ((refund?.restock && !byLine) || refundedCents >= order.amountCents)
      await voidOrderTickets(tx, order.id, input.now);
    await recordOrderEvent(tx, order.id, "refund", summary, input.now, {
      refundId: input.refundId ?? null,
      amountCents: amount,
    });
    await queueOrderEmail(tx, refundEmail(updated!, amount, await shopContact(tx)), input.now);
    return { outcome: "refunded" as const, order: updated };
  });
}

/** A refund the provider could not make: the owner sees it failed on the order and may try again. */
export async function recordRefundFailure(
  db: Database,
  input: RefundEventInput,
): Promise<{ outcome: PaymentOutcome; order?: OrderRow }> {
  return db.transaction(async (tx) => {
    if (!(await firstDelivery(tx, input.event))) return { outcome: "duplicate" as const };
    const order = await lockOrder(tx, {
      orderId: input.orderId,
      checkoutId: input.checkoutId,
      paymentId: input.paymentId,
    });
    if (!order) return { outcome: "unknown-order" as const };
    const refund = await lockRefund(tx, order.id, input.refundId);
    if (!refund || refund.status === "succeeded" || refund.status === "failed")
      return { outcome: "unchanged" as const, order };
    await tx
      .update(refunds)
      .set({
        status: "failed",
        completedAt: input.now,
        failureReason: "The payment provider could not make this refund.",
      })
      .where(eq(refunds.id, refund.id));
    await recordOrderEvent(
      tx,
      order.id,
      "refund",
      `Refund of ${formatRand(refund.amountCents)} failed at the payment provider`,
      input.now,
    );
    return { outcome: "refund-failed" as const, order };
  });
}

/** Records an event that changes no order (unknown types) so a repeat is recognised. */
export async function recordIgnoredEvent(db: Database, event: EventRecord): Promise<PaymentOutcome> {
  return db.transaction(async (tx) => ((await firstDelivery(tx, event)) ? "unchanged" : "duplicate"));
}
