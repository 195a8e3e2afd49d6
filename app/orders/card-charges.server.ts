import { eq } from "drizzle-orm";
import { recordAudit } from "~/admin/audit.server";
import type { AppContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import { membershipTiers, orders, paymentWebhookEvents } from "~/db/schema";
import { formatRand } from "~/lib/money";
import {
  markSubscriptionCancelled,
  recordCharge,
  type CardSubscription,
} from "~/memberships/card-subscriptions.server";
import { findMember } from "~/memberships/member-row.server";
import { cancelMembership } from "~/memberships/members.server";
import { subscriptionsApi } from "~/payments/payfast/providers.server";
import type { CardNotification } from "~/payments/payfast/subscriptions";
import { recordOrderEvent } from "./order-history.server";
import { closePendingOrder, createPendingOrder, findOrder, type OrderRow } from "./orders.server";
import { mailSettingsForOrders } from "./order-mail-settings.server";
import { firstDelivery, type EventRecord } from "./payment-event-delivery.server";
import { recordPayment } from "./payment-events.server";

type Context = Pick<AppContext, "db" | "config" | "clock">;

export type CardChargeOutcome =
  "paid" | "renewed" | "duplicate" | "charged-after-cancel" | "cancelled" | "ignored" | "amount-mismatch";

/** Orders that hold a payment already: the checkout's first charge is done, so a new charge is a renewal. */
const SETTLED = new Set<OrderRow["status"]>(["paid", "refunded", "partially_refunded"]);

/** A charge makes the event id that makes it count once, whichever way it arrives (PayFast's `pf_payment_id`). */
const chargeEventId = (notification: CardNotification) => `payfast:${notification.paymentId}`;

async function seenBefore(db: Database, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentWebhookEvents.webhookId })
    .from(paymentWebhookEvents)
    .where(eq(paymentWebhookEvents.webhookId, eventId))
    .limit(1);
  return !!row;
}

/** Something the owner should know about a card payment: her activity log and the server's log. */
export async function alertOwner(db: Database, summary: string, now: Date, detail?: Record<string, unknown>) {
  console.warn(`[payfast] ${summary}`);
  await recordAudit(db, { action: "payment.card-alert", entity: "payment", summary, after: detail ?? null }, now);
}

/**
 * A verified notification about a card subscription, applied exactly once (payments-payfast.md §6):
 * the first COMPLETE pays the checkout's order (and makes the member); each later COMPLETE is an order of
 * its own for the member that extends her by one period under periods.ts, whatever the day it arrives;
 * the same charge twice changes nothing; CANCELLED is final; a charge after a cancel is recorded and
 * flagged for a refund but never extends.
 */
export async function applyCardNotification(
  context: Context,
  subscription: CardSubscription,
  notification: CardNotification,
): Promise<CardChargeOutcome> {
  const { db } = context;
  const now = context.clock.now();
  if (notification.status === "CANCELLED") {
    // If our own cancel (by the member or the owner) ended it first, she may have chosen to stay on by email since.
    if (!(await markSubscriptionCancelled(db, subscription.id, now))) return "duplicate";
    if (subscription.memberId) await cancelMembership(db, subscription.memberId, now, "member");
    return "cancelled";
  }
  if (notification.status !== "COMPLETE") return "ignored";
  const event = {
    eventId: chargeEventId(notification),
    provider: subscription.provider,
    eventType: "COMPLETE",
    payload: notification.fields,
  };
  if (await seenBefore(db, event.eventId)) return "duplicate";
  const mail = mailSettingsForOrders(context.config);
  const checkout = await findOrder(db, subscription.orderId);
  if (!checkout) return "ignored";

  if (!SETTLED.has(checkout.status)) {
    const { outcome } = await recordPayment(db, {
      event,
      orderId: checkout.id,
      paymentId: notification.paymentId,
      amountCents: checkout.amountCents,
      now,
      mail,
    });
    if (outcome === "duplicate") return "duplicate";
    const paid = await findOrder(db, checkout.id);
    await afterCharge(context, subscription, notification, paid?.memberId ?? null, now);
    return "paid";
  }

  const member = subscription.memberId ? await findMember(db, subscription.memberId) : undefined;
  if (!member) return "ignored";
  const order = await chargeOrder(context, subscription, member, event.eventId, now);
  if (subscription.status === "cancelled") {
    await flagChargeAfterCancel(db, order, event, notification, now);
    return "charged-after-cancel";
  }
  const { outcome } = await recordPayment(db, {
    event,
    orderId: order.id,
    paymentId: notification.paymentId,
    amountCents: order.amountCents,
    now,
    mail,
  });
  if (outcome === "duplicate") {
    // A concurrent delivery of the same charge made this order and paid it: this one is not needed.
    if (order.status === "pending") await closePendingOrder(db, order.id, "cancelled", now);
    return "duplicate";
  }
  await afterCharge(context, subscription, notification, member.id, now);
  return "renewed";
}

/** The order a monthly charge is recorded as: one per charge (its key is the charge's id), priced as agreed. */
async function chargeOrder(
  context: Context,
  subscription: CardSubscription,
  member: NonNullable<Awaited<ReturnType<typeof findMember>>>,
  key: string,
  now: Date,
): Promise<OrderRow> {
  const existing = async () => (await context.db.select().from(orders).where(eq(orders.idempotencyKey, key)))[0];
  const found = await existing();
  if (found) return found;
  const [tier] = await context.db
    .select({ name: membershipTiers.name })
    .from(membershipTiers)
    .where(eq(membershipTiers.slug, subscription.tierSlug));
  const [firstName, ...rest] = member.name.split(/\s+/);
  try {
    return await createPendingOrder(context.db, {
      item: {
        orderType: "membership",
        displayName: `${tier?.name ?? subscription.tierSlug} Membership`,
        amountCents: subscription.amountCents,
        description: null,
        stock: null,
        line: { membershipSlug: subscription.tierSlug },
      },
      customer: {
        firstName: firstName || member.name,
        lastName: rest.join(" "),
        email: member.email,
        phone: member.phone,
        address: "",
      },
      provider: subscription.provider,
      sessionId: null,
      now,
      holdMinutes: context.config.payment.stockHoldMinutes,
      clientKey: null,
      memberId: member.id,
      idempotencyKey: key,
    });
  } catch (error) {
    // A concurrent delivery of the same charge made it first.
    const made = await existing();
    if (made) return made;
    throw error;
  }
}

/** A charge that arrived after the subscription was cancelled: the money is recorded, nothing is extended, the owner refunds it. */
async function flagChargeAfterCancel(
  db: Database,
  order: OrderRow,
  event: EventRecord,
  notification: CardNotification,
  now: Date,
) {
  await db.transaction(async (tx) => {
    if (!(await firstDelivery(tx, event))) return;
    await tx
      .update(orders)
      .set({
        status: "paid",
        completedAt: now,
        providerPaymentId: notification.paymentId,
        needsAttention: true,
        attentionReason:
          `Charged ${formatRand(order.amountCents)} by card after the subscription was cancelled: ` +
          "no month was added. Refund it at the card provider.",
        updatedAt: now,
      })
      .where(eq(orders.id, order.id));
    await recordOrderEvent(
      tx,
      order.id,
      "attention",
      "Card charged after the subscription was cancelled: not extended",
      now,
    );
  });
  await alertOwner(
    db,
    `A card charge of ${formatRand(order.amountCents)} arrived after the subscription was cancelled; refund it (order ${order.reference})`,
    now,
  );
}

/**
 * The subscription learns its token, member and next charge. Its billing date is kept on paid-until:
 * if the provider would charge later (a month-end, decision 115), it is moved back through the API;
 * a provider that cannot be reached now is asked again after the next charge.
 */
async function afterCharge(
  context: Context,
  subscription: CardSubscription,
  notification: CardNotification,
  memberId: number | null,
  now: Date,
) {
  if (!memberId) return;
  const member = await findMember(context.db, memberId);
  if (!member) return;
  const updated = await recordCharge(context.db, subscription, { token: notification.token, member }, now);
  if (!updated || updated.status !== "active") return;
  try {
    const api = subscriptionsApi(updated.provider, context);
    const state = await api.fetch(notification.token);
    if (state.runDate && state.runDate > member.paidUntil) await api.moveRunDate(notification.token, member.paidUntil);
  } catch (error) {
    console.warn(
      `[payfast] could not align the next charge of subscription ${updated.id}: ${(error as Error).message}`,
    );
  }
}
