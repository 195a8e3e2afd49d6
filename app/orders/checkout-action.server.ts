import { redirect } from "react-router";
import { recordAnalyticsEvent } from "~/analytics/ingest.server";
import type { AppContext } from "~/context.server";
import { requestClientKey } from "~/lib/client-address.server";
import { paymentProvider } from "~/payments/providers.server";
import { holdClientKey, HoldLimitError, OutOfStockError } from "~/stock/holds.server";
import { PaymentProviderError, returnUrls, type CheckoutLineItem, type PaymentProvider } from "~/payments/provider";
import {
  checkoutSessionId,
  CHECKOUT_FIELDS,
  checkoutErrorToast,
  checkoutFormProblem,
  checkoutSchema,
  UNEXPECTED_ERROR_TOAST,
  type CheckoutActionResult,
  type CheckoutToast,
  type CheckoutValues,
} from "./checkout-schema";
import { CHECKOUT_RATE_LIMIT_REASON, withinCheckoutBudget } from "./checkout-budget.server";
import { SEATS_PROBLEM, seatsFromForm } from "./checkout-seats";
import { attendeesForLines, attendeesRefusal } from "./checkout-attendees.server";
import { newBuyerBinding } from "./order-access.server";
import { attachCheckout, closePendingOrder, createPendingOrder, type OrderRow } from "./orders.server";
import { findSellable, rememberRefusal, type RowChoice } from "./sellable.server";
import { readNewsBox, subscribeFromCheckout } from "~/newsletters/checkout-news.server";
import { payfastEnabled } from "~/payments/payfast/providers.server";
import { startCardSubscription } from "./payfast-checkout.server";
import { signedInMemberId } from "~/memberships/member-session.server";
import { BelowMinimumChargeError, FREE_PROVIDER } from "./order-pricing.server";
import { CARD_SUBSCRIPTION_CODE_REASON, DiscountCodeRefused, typedCode } from "~/pricing/discount-code-checkout.server";
import { confirmFreeOrder } from "./free-order.server";

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/**
 * The /checkout action: validate, price from the database, store the pending order with its hold,
 * then create the provider checkout and send the buyer to its payment page. Anything short of that
 * answers with the spec's toast and keeps what the buyer typed; nothing is charged twice because
 * each order carries one idempotency key for every call the provider sees.
 */
export async function submitCheckout(
  request: Request,
  context: Pick<AppContext, "db" | "config" | "clock" | "clientIp">,
  provider: PaymentProvider = paymentProvider(context.config),
): Promise<Response | CheckoutActionResult> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return {
      ok: false,
      toast: checkoutErrorToast("The form could not be read. Please try again."),
      values: emptyValues(),
    };
  }
  const values = Object.fromEntries(CHECKOUT_FIELDS.map((f) => [f, field(form, f)])) as CheckoutValues;
  const problem = checkoutFormProblem(values);
  const parsed = checkoutSchema.safeParse(values);
  if (problem || !parsed.success) return { ok: false, toast: problem ?? checkoutErrorToast(), values };
  const news = readNewsBox(form);
  if (!news.ok) return { ok: false, toast: checkoutErrorToast(news.message), values };

  const url = new URL(request.url);
  const type = field(form, "type") || url.searchParams.get("type") || "";
  const item = field(form, "item") || url.searchParams.get("item") || "";
  const choice = rowChoiceFrom(form, url);
  const now = context.clock.now();
  const found = await findSellable(context.db, type, item, now, choice);
  rememberRefusal(context, type, item, found, choice);
  if (!found.ok) {
    const reason = type || item ? found.reason : "Please choose something to buy first.";
    return { ok: false, toast: checkoutErrorToast(reason), values };
  }

  const quantity = seatsFromForm(found.item.orderType, field(form, "seats"));
  if (quantity === null) return { ok: false, toast: checkoutErrorToast(SEATS_PROBLEM), values };
  const named = attendeesForLines(form, [{ item: found.item, quantity }], parsed.data);
  if (!named.ok) return attendeesRefusal(named, values);
  if (!(await withinCheckoutBudget(context)))
    return { ok: false, toast: checkoutErrorToast(CHECKOUT_RATE_LIMIT_REASON), values };

  // With PayFast keys a membership is a card subscription; everything else pays through `provider`.
  const cardTier =
    found.item.orderType === "membership" && payfastEnabled(context.config)
      ? found.item.line.membershipSlug
      : undefined;
  const sessionId = checkoutSessionId(form);
  // The browser that pays is the buyer's: it will see the tickets and enter /account (decision 106).
  const buyer = newBuyerBinding(context);
  // A signed-in member's perks price the order (issue 40); a card subscription is priced as listed.
  const perksOf = cardTier ? undefined : await signedInMemberId(request, context);
  // The code applied on the page rides the checkout's URL, as the item does; the form may also carry one.
  const discountCode = typedCode(field(form, "discountCode") || url.searchParams.get("code"));
  if (discountCode && cardTier) return codeRefusal(CARD_SUBSCRIPTION_CODE_REASON, values, discountCode);
  let order;
  try {
    order = await createPendingOrder(context.db, {
      item: found.item,
      customer: parsed.data,
      provider: cardTier ? "payfast" : provider.name,
      sessionId,
      now,
      holdMinutes: context.config.payment.stockHoldMinutes,
      clientKey: holdClientKey(requestClientKey(context), context.config.sessionSecret),
      quantity,
      buyer: buyer.row,
      attendeeNames: named.lines[0]!.attendeeNames,
      perksOf,
      discountCode,
    });
  } catch (error) {
    if (error instanceof DiscountCodeRefused) return codeRefusal(error.message, values, discountCode);
    if (error instanceof OutOfStockError || error instanceof HoldLimitError || error instanceof BelowMinimumChargeError)
      return { ok: false, toast: checkoutErrorToast(error.message), values };
    throw error;
  }

  const sent =
    order.provider === FREE_PROVIDER
      ? { ok: true as const, redirectUrl: await confirmFreeOrder(context, order), checkoutId: null }
      : cardTier
        ? await startCardSubscription(context, order, cardTier)
        : await sendToPaymentPage(context, order, provider);
  if (!sent.ok) return { ok: false, toast: sent.toast, values };
  await afterCheckoutCreated(context, {
    news: news.ticked,
    customer: parsed.data,
    page: "/checkout",
    sessionId,
    order,
    checkoutId: sent.checkoutId,
    now,
  });
  return redirect(sent.redirectUrl, { headers: { "Set-Cookie": buyer.cookie } });
}

/**
 * What follows a created checkout, before the buyer leaves for the payment page: the newsletter box's
 * subscription, and the funnel's "checkout created" step (the browser leaves at once, so the server
 * records it). Neither needs the other, so they are sent together: one wait, not two.
 */
export async function afterCheckoutCreated(
  context: Pick<AppContext, "db" | "config">,
  step: {
    news: boolean;
    customer: { email: string; firstName: string; lastName: string };
    /** The checkout's page, as the subscription records it. */
    page: string;
    sessionId: string | null;
    order: OrderRow;
    checkoutId: string | null;
    bag?: boolean;
    now: Date;
  },
): Promise<void> {
  const { order, now } = step;
  await Promise.all([
    step.news ? subscribeFromCheckout(context, step.customer, step.page, now) : undefined,
    step.sessionId
      ? recordAnalyticsEvent(
          context.db,
          {
            eventType: "checkout_created_success",
            pagePath: "/checkout",
            itemName: order.itemName.slice(0, 200),
            sessionId: step.sessionId,
            referrer: null,
            metadata: {
              checkoutId: step.checkoutId,
              amount: order.amountCents,
              ...(step.bag && { bag: true }),
            },
          },
          now,
        ).catch((error) =>
          console.error(`[analytics] checkout_created_success not recorded: ${(error as Error).message}`),
        )
      : undefined,
  ]);
}

/**
 * Creates the provider checkout for a stored pending order (its one idempotency key for every call)
 * and attaches it. If the buyer cannot be sent to a payment page, nothing can be paid on the order, so
 * it is closed and its units freed. Used by /checkout and by a member's renewal.
 */
export async function sendToPaymentPage(
  context: Pick<AppContext, "db" | "config" | "clock">,
  order: OrderRow,
  provider: PaymentProvider = paymentProvider(context.config),
  /** The order's lines as the provider lists them (a bag's); one line of the whole amount otherwise. */
  lineItems: CheckoutLineItem[] = [{ displayName: order.itemName, quantity: 1, unitPriceCents: order.amountCents }],
): Promise<{ ok: true; redirectUrl: string; checkoutId: string } | { ok: false; toast: CheckoutToast }> {
  const now = context.clock.now();
  try {
    const created = await provider.createCheckout({
      orderId: order.id,
      reference: order.reference,
      amountCents: order.amountCents,
      currency: "ZAR",
      lineItems,
      metadata: {
        orderId: order.id,
        reference: order.reference,
        orderType: order.orderType,
        itemName: order.itemName,
        customerName: `${order.customerFirstName} ${order.customerLastName}`,
        customerEmail: order.customerEmail,
      },
      ...returnUrls(context.config.siteUrl, order.id),
      idempotencyKey: order.idempotencyKey,
    });
    await attachCheckout(context.db, order.id, created.checkoutId, now);
    return { ok: true, redirectUrl: created.redirectUrl, checkoutId: created.checkoutId };
  } catch (error) {
    await closePendingOrder(context.db, order.id, "failed", now).catch(() => {});
    if (error instanceof PaymentProviderError) {
      console.error(
        `[payments] checkout for order ${order.id} failed: ${error.message} (status ${error.status ?? "none"})`,
      );
      return { ok: false, toast: checkoutErrorToast(error.message) };
    }
    console.error(`[payments] checkout for order ${order.id} failed unexpectedly:`, error);
    return { ok: false, toast: UNEXPECTED_ERROR_TOAST };
  }
}

/** The size or colour chosen on the product page: it rides the checkout's URL, as the item does. */
export function rowChoiceFrom(form: FormData | null, url: URL): RowChoice {
  const pick = (name: string) => (form ? field(form, name) : "") || url.searchParams.get(name) || undefined;
  return { option1: pick("option1")?.slice(0, 100), option2: pick("option2")?.slice(0, 100) };
}

/** A refused discount code: the toast says why, and so does the code's field. */
export function codeRefusal(message: string, values: CheckoutValues, discountCode: string): CheckoutActionResult {
  return { ok: false, toast: checkoutErrorToast(message), values, codeError: message, discountCode };
}

function emptyValues(): CheckoutValues {
  return { firstName: "", lastName: "", email: "", phone: "", address: "" };
}
