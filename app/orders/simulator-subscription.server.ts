import { eq } from "drizzle-orm";
import { redirect } from "react-router";
import type { AppContext } from "~/context.server";
import { orderLines } from "~/db/schema";
import { dayMonthYear } from "~/lib/dates-in-words";
import { formatRand } from "~/lib/money";
import { createPendingSubscription, findSubscriptionByOrder } from "~/memberships/card-subscriptions.server";
import { findMember } from "~/memberships/member-row.server";
import { southAfricanDay } from "~/memberships/periods";
import {
  cancelAtSimulator,
  failNextSimulatedCharge,
  findSimulatedSubscription,
  runSimulatedCharge,
  startSimulatedSubscription,
} from "~/payments/payfast/simulator.server";
import { applyCardNotification } from "./card-charges.server";
import type { OrderRow } from "./orders.server";

type Context = Pick<AppContext, "db" | "config" | "clock">;

export type SubscriptionIntent = "subscribe" | "charge" | "fail-next" | "provider-cancel";

/** What the simulator page shows of a membership order's card subscription, once there is one. */
export async function simulatorSubscriptionView(context: Context, order: OrderRow) {
  if (order.orderType !== "membership") return { offered: false as const, subscription: null };
  const subscription = await findSubscriptionByOrder(context.db, order.id);
  const simulated = subscription?.token ? await findSimulatedSubscription(context.db, subscription.token) : undefined;
  if (!subscription || subscription.provider !== "simulator" || !simulated)
    return { offered: order.status === "pending", subscription: null };
  const member = subscription.memberId ? await findMember(context.db, subscription.memberId) : undefined;
  return {
    offered: false as const,
    subscription: {
      status: simulated.status,
      amountCents: simulated.amountCents,
      runDate: simulated.runDate,
      failNext: simulated.failNext,
      charges: simulated.charges,
      paidUntil: member?.paidUntil ?? null,
    },
  };
}

/**
 * The simulator as a card-subscription provider: Subscribe charges the first month and starts a monthly
 * subscription; then, as PayFast would, it runs the next month's charge (or declines it) and lets the
 * buyer cancel at its end. Each charge or cancel reaches the shop as PayFast's notification would, through
 * the same code after the checks a real one passes.
 */
export async function runSimulatorSubscriptionIntent(
  context: Context,
  order: OrderRow,
  intent: SubscriptionIntent,
): Promise<Response | { message: string } | { error: string }> {
  const { db } = context;
  if (order.orderType !== "membership") return { error: "Only a membership can be paid by card subscription." };
  if (intent === "subscribe") {
    if (order.status !== "pending") return { error: "This payment is no longer open." };
    const [line] = await db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).limit(1);
    if (!line?.membershipSlug) return { error: "This order is not for a membership plan." };
    const now = context.clock.now();
    const subscription = await createPendingSubscription(
      db,
      { orderId: order.id, provider: "simulator", tierSlug: line.membershipSlug, amountCents: order.amountCents },
      now,
    );
    const first = await startSimulatedSubscription(db, {
      paymentRef: order.id,
      customRef: order.reference,
      itemName: order.itemName,
      amountCents: order.amountCents,
      billingDate: southAfricanDay(now),
    });
    await applyCardNotification(context, subscription, first);
    return redirect(`/order-confirmation?${new URLSearchParams({ status: "success", orderId: order.id })}`);
  }
  const subscription = await findSubscriptionByOrder(db, order.id);
  if (!subscription?.token || subscription.provider !== "simulator")
    return { error: "This order has no card subscription at the simulator." };
  const { token } = subscription;
  if (intent === "fail-next") {
    await failNextSimulatedCharge(db, token);
    return { message: "The next charge will be declined, and PayFast sends no notification for a declined card." };
  }
  if (intent === "provider-cancel") {
    const cancelled = await cancelAtSimulator(db, token);
    if (cancelled) await applyCardNotification(context, subscription, cancelled);
    return { message: "The subscription is cancelled at the provider: no more charges." };
  }
  const charge = await runSimulatedCharge(db, token);
  if (!charge.charged) return { message: charge.reason };
  const outcome = await applyCardNotification(context, subscription, charge.notification);
  const member = subscription.memberId ? await findMember(db, subscription.memberId) : undefined;
  const amount = formatRand(charge.notification.amountCents);
  if (outcome === "charged-after-cancel")
    return { message: `Charged ${amount}, but the membership was cancelled: the owner is asked to refund it.` };
  return {
    message: member
      ? `Charged ${amount}. The membership is paid until ${dayMonthYear(member.paidUntil)}.`
      : `Charged ${amount}.`,
  };
}
