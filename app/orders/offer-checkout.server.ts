import { redirect } from "react-router";
import type { AppContext } from "~/context.server";
import { readNewsBox, subscribeFromCheckout } from "~/newsletters/checkout-news.server";
import { paymentProvider } from "~/payments/providers.server";
import type { PaymentProvider } from "~/payments/provider";
import { signedInMemberId } from "~/memberships/member-session.server";
import { codeForPage, DiscountCodeRefused, pageCodeWords, typedCode } from "~/pricing/discount-code-checkout.server";
import type { CodeView } from "~/pricing/discount-code-words";
import {
  claimOfferHold,
  findOffer,
  OFFER_ENDED,
  OFFER_USED,
  OfferUnavailableError,
  type OfferLookup,
} from "~/waitlist/offers.server";
import {
  checkoutSessionId,
  CHECKOUT_FIELDS,
  checkoutErrorToast,
  checkoutFormProblem,
  checkoutSchema,
  type CheckoutActionResult,
  type CheckoutValues,
} from "./checkout-schema";
import { CHECKOUT_RATE_LIMIT_REASON, withinCheckoutBudget } from "./checkout-budget.server";
import { codeRefusal, sendToPaymentPage } from "./checkout-action.server";
import { attendeesForLines, attendeesRefusal } from "./checkout-attendees.server";
import { newBuyerBinding } from "./order-access.server";
import { confirmFreeOrder } from "./free-order.server";
import { BelowMinimumChargeError, FREE_PROVIDER, priceForCheckout } from "./order-pricing.server";
import { createPendingOrder } from "./orders.server";
import type { Sellable } from "./sellable.server";

type OpenOffer = Extract<OfferLookup, { state: "open" }>;

/** What an open offer sells, as the checkout prices and stores it: the offered option at its price today. */
function offerSellable({ entry, item }: OpenOffer): Sellable {
  return {
    orderType: item.orderType,
    displayName: item.itemName,
    amountCents: item.priceCents,
    description: item.description,
    // The units are the offer's hold: no new hold is counted, so `limit` is never read.
    stock: { key: entry.stockKey, limit: entry.seats, soldOutReason: item.soldOutReason },
    line: { ticketOptionId: item.optionId },
  };
}

/**
 * What the offer's page shows for its seats, priced by the same rule as the action (issue 40): a signed-in
 * active member's perk, or the discount code in the page's URL (?code=), whichever is better per seat.
 * Read without the member's or the code's lock; the action takes them.
 */
export async function priceOfferForPage(
  request: Request,
  context: Pick<AppContext, "db" | "config" | "clock">,
  offer: OpenOffer,
): Promise<{ listCents: number; totalCents: number; reason: string | null; code: CodeView }> {
  const now = context.clock.now();
  const typed = typedCode(new URL(request.url).searchParams.get("code"));
  const found = await codeForPage(context.db, typed, now, context.config.payment.stockHoldMinutes);
  const memberId = await signedInMemberId(request, context);
  const price = await priceForCheckout(
    context.db,
    [{ item: offerSellable(offer), quantity: offer.entry.seats }],
    memberId,
    now,
    { code: found.code },
  );
  return {
    listCents: price.listCents,
    totalCents: price.totalCents,
    reason: price.lines[0]!.reason,
    code: {
      typed,
      ...(found.code ? pageCodeWords(price, found.code) : { error: found.error, note: null }),
    },
  };
}

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/**
 * The checkout of a waiting-list offer (decision 123): the one-item checkout of the offered option and
 * seats, whose order takes over the offer's hold in the transaction that stores it, then pays as
 * /checkout does. The seats and price come from the offer and the database, never from the form.
 */
export async function submitOfferCheckout(
  request: Request,
  token: string,
  context: Pick<AppContext, "db" | "config" | "clock" | "clientIp">,
  provider: PaymentProvider = paymentProvider(context.config),
): Promise<Response | CheckoutActionResult> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    form = new FormData();
  }
  const values = Object.fromEntries(CHECKOUT_FIELDS.map((f) => [f, field(form, f)])) as CheckoutValues;
  const problem = checkoutFormProblem(values);
  const parsed = checkoutSchema.safeParse(values);
  if (problem || !parsed.success) return { ok: false, toast: problem ?? checkoutErrorToast(), values };
  const news = readNewsBox(form);
  if (!news.ok) return { ok: false, toast: checkoutErrorToast(news.message), values };

  const now = context.clock.now();
  const offer = await findOffer(context.db, token, now);
  if (offer.state !== "open")
    return { ok: false, toast: checkoutErrorToast(offer.state === "used" ? OFFER_USED : OFFER_ENDED), values };
  if (!(await withinCheckoutBudget(context)))
    return { ok: false, toast: checkoutErrorToast(CHECKOUT_RATE_LIMIT_REASON), values };

  const { entry } = offer;
  const sellable = offerSellable(offer);
  const named = attendeesForLines(form, [{ item: sellable, quantity: entry.seats }], parsed.data);
  if (!named.ok) return attendeesRefusal(named, values);
  const sessionId = checkoutSessionId(form);
  const buyer = newBuyerBinding(context);
  // A signed-in member's perks price the offered seats, under her member lock taken before the offer's
  // stock key (decision 129's order), so the month's last free ticket goes to one checkout.
  const perksOf = await signedInMemberId(request, context);
  // The code applied on the page rides its URL; its use is taken with the offer's hold, in one transaction.
  const discountCode = typedCode(field(form, "discountCode") || new URL(request.url).searchParams.get("code"));
  let order;
  try {
    order = await createPendingOrder(context.db, {
      item: sellable,
      customer: parsed.data,
      provider: provider.name,
      sessionId,
      now,
      holdMinutes: context.config.payment.stockHoldMinutes,
      // The offer's seats were held for this person: they count against nobody's budget of unpaid holds.
      clientKey: null,
      quantity: entry.seats,
      buyer: buyer.row,
      attendeeNames: named.lines[0]!.attendeeNames,
      perksOf,
      discountCode,
      claimHold: (tx, orderId) =>
        claimOfferHold(tx, {
          token,
          key: entry.stockKey,
          seats: entry.seats,
          orderId,
          now,
          holdMinutes: context.config.payment.stockHoldMinutes,
        }),
    });
  } catch (error) {
    if (error instanceof DiscountCodeRefused) return codeRefusal(error.message, values, discountCode);
    if (error instanceof OfferUnavailableError || error instanceof BelowMinimumChargeError)
      return { ok: false, toast: checkoutErrorToast(error.message), values };
    throw error;
  }
  const sent =
    order.provider === FREE_PROVIDER
      ? { ok: true as const, redirectUrl: await confirmFreeOrder(context, order) }
      : await sendToPaymentPage(context, order, provider);
  if (!sent.ok) return { ok: false, toast: sent.toast, values };
  if (news.ticked) await subscribeFromCheckout(context, parsed.data, "/waiting-list/offer", now);
  return redirect(sent.redirectUrl, { headers: { "Set-Cookie": buyer.cookie } });
}
