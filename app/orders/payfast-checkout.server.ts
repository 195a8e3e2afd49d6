import type { AppContext } from "~/context.server";
import {
  activeSubscriptionOf,
  createPendingSubscription,
  findSubscriptionByOrder,
} from "~/memberships/card-subscriptions.server";
import { findMemberByEmail } from "~/memberships/member-row.server";
import { southAfricanDay } from "~/memberships/periods";
import { subscriptionForm } from "~/payments/payfast/form.server";
import { returnUrls } from "~/payments/provider";
import { checkoutErrorToast, type CheckoutToast } from "./checkout-schema";
import { closePendingOrder, findOrder, type OrderRow } from "./orders.server";

/** A member already charged by card is not sold a second subscription: she changes plan from /account. */
export const ALREADY_BY_CARD =
  "You already pay for your membership by card each month. To change plan, use your account page.";

type Context = Pick<AppContext, "db" | "config" | "clock">;

/** The URL PayFast posts its notifications to, named in every checkout's form. */
export const payfastNotifyUrl = (siteUrl: string) => `${siteUrl}/api/payfast/itn`;

/**
 * A membership bought by card subscription: the price agreed now is stored with the pending order, and
 * the buyer goes to our page that posts the signed form to PayFast (a browser form post, not an API call).
 */
export async function startCardSubscription(
  context: Context,
  order: OrderRow,
  tierSlug: string,
): Promise<{ ok: true; redirectUrl: string; checkoutId: string } | { ok: false; toast: CheckoutToast }> {
  const member = await findMemberByEmail(context.db, order.customerEmail);
  if (member && (await activeSubscriptionOf(context.db, member.id))) {
    await closePendingOrder(context.db, order.id, "cancelled", context.clock.now());
    return { ok: false, toast: checkoutErrorToast(ALREADY_BY_CARD) };
  }
  await createPendingSubscription(
    context.db,
    { orderId: order.id, provider: "payfast", tierSlug, amountCents: order.amountCents },
    context.clock.now(),
  );
  return { ok: true, redirectUrl: `/payments/payfast/${order.id}`, checkoutId: order.id };
}

/** The signed form for a pending PayFast membership order, or nothing for any other order. */
export async function payfastCheckoutForm(context: Context, orderId: string) {
  const payfast = context.config.payfast;
  if (!payfast) return undefined;
  const order = await findOrder(context.db, orderId);
  if (!order || order.provider !== "payfast" || order.status !== "pending") return undefined;
  const subscription = await findSubscriptionByOrder(context.db, order.id);
  if (!subscription || subscription.status !== "pending") return undefined;
  const urls = returnUrls(context.config.siteUrl, order.id);
  const form = subscriptionForm(payfast, {
    checkoutRef: order.id,
    memberRef: order.reference,
    amountCents: subscription.amountCents,
    itemName: order.itemName,
    firstName: order.customerFirstName,
    lastName: order.customerLastName,
    email: order.customerEmail,
    billingDate: southAfricanDay(context.clock.now()),
    returnUrl: urls.successUrl,
    cancelUrl: urls.cancelUrl,
    notifyUrl: payfastNotifyUrl(context.config.siteUrl),
  });
  return {
    order: { reference: order.reference, itemName: order.itemName, amountCents: subscription.amountCents },
    form,
  };
}
