import { redirect } from "react-router";
import type { AppContext } from "~/context.server";
import { requestClientKey } from "~/lib/client-address.server";
import { textFields } from "~/lib/form";
import { readNewsBox } from "~/newsletters/checkout-news.server";
import { bagBudgetProblem, createPendingBagOrder, LineNotHeldError } from "~/orders/bag-order.server";
import { CHECKOUT_RATE_LIMIT_REASON, withinCheckoutBudget } from "~/orders/checkout-budget.server";
import { afterCheckoutCreated, codeRefusal, sendToPaymentPage } from "~/orders/checkout-action.server";
import type { CodeView } from "~/pricing/discount-code-words";
import { codeForPage, DiscountCodeRefused, pageCodeWords, typedCode } from "~/pricing/discount-code-checkout.server";
import { attendeesForLines, attendeesRefusal, seatGroupsOf } from "~/orders/checkout-attendees.server";
import {
  checkoutSessionId,
  CHECKOUT_FIELDS,
  checkoutErrorToast,
  checkoutFormProblem,
  checkoutSchema,
  type CheckoutActionResult,
} from "~/orders/checkout-schema";
import { newBuyerBinding } from "~/orders/order-access.server";
import { signedInMemberId } from "~/memberships/member-session.server";
import { confirmFreeOrder } from "~/orders/free-order.server";
import {
  BelowMinimumChargeError,
  FREE_PROVIDER,
  priceForCheckout,
  providerLineItems,
  type LinePerk,
} from "~/orders/order-pricing.server";
import { orderLines } from "~/db/schema";
import { eq } from "drizzle-orm";
import { findSellableByRef } from "~/orders/sellable.server";
import { paymentProvider } from "~/payments/providers.server";
import type { PaymentProvider } from "~/payments/provider";
import { holdClientKey, HoldLimitError } from "~/stock/holds.server";
import { bagCookies, requestBagToken } from "./bag-cookie.server";
import { bagCountFromCookies, EMPTY_BAG_REASON } from "./bag-limits";
import { openBag, refOfLine, rememberCheckout, unitsInBag } from "./bag-store.server";
import { openBagWithRows, viewBag } from "./bag-view.server";

const CHANGE_BAG = "Please change your bag first.";

/**
 * The bag's checkout: one customer form, one order with a line per bag line, every unit and seat held
 * in one transaction or none (the refusal names the line and what is left, and the bag stays as it
 * is), one provider checkout listing the lines. The bag empties once the order is paid.
 */
export async function submitBagCheckout(
  request: Request,
  context: Pick<AppContext, "db" | "config" | "clock" | "clientIp">,
  provider: PaymentProvider = paymentProvider(context.config),
): Promise<Response | CheckoutActionResult> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return refuse("The form could not be read. Please try again.", textFields(new FormData(), CHECKOUT_FIELDS));
  }
  const values = textFields(form, CHECKOUT_FIELDS);
  const problem = checkoutFormProblem(values);
  const parsed = checkoutSchema.safeParse(values);
  if (problem || !parsed.success) return { ok: false, toast: problem ?? checkoutErrorToast(), values };
  const news = readNewsBox(form);
  if (!news.ok) return { ok: false, toast: checkoutErrorToast(news.message), values };

  const now = context.clock.now();
  const opened = await openBagWithRows(context.db, requestBagToken(request), now);
  const bagId = opened.bagId;
  const bag = await viewBag(context.db, opened.lines, now, opened.rows);
  if (!bagId || !bag.lines.length) return refuse(EMPTY_BAG_REASON, values);
  const marked = bag.lines.find((l) => l.problem);
  if (marked) {
    const named = marked.problem!.startsWith(marked.name) ? marked.problem : `${marked.name}: ${marked.problem}`;
    return refuse(`${named} ${CHANGE_BAG}`, values);
  }
  const named = attendeesForLines(
    form,
    bag.buyable.map((b) => ({ item: b.item, quantity: b.line.quantity })),
    parsed.data,
  );
  if (!named.ok) return attendeesRefusal(named, values);
  const lines = named.lines;
  const overBudget = bagBudgetProblem(lines);
  if (overBudget) return refuse(overBudget, values);
  if (!(await withinCheckoutBudget(context))) return refuse(CHECKOUT_RATE_LIMIT_REASON, values);

  const sessionId = checkoutSessionId(form);
  const buyer = newBuyerBinding(context);
  // A signed-in member's perks price the bag (issue 40).
  const perksOf = await signedInMemberId(request, context);
  // The code applied on the page rides the checkout's URL (/checkout?bag=1&code=…).
  const discountCode = typedCode(form.get("discountCode") || new URL(request.url).searchParams.get("code"));
  let order;
  try {
    order = await createPendingBagOrder(context.db, {
      lines,
      customer: parsed.data,
      provider: provider.name,
      sessionId,
      now,
      holdMinutes: context.config.payment.stockHoldMinutes,
      clientKey: holdClientKey(requestClientKey(context), context.config.sessionSecret),
      buyer: buyer.row,
      perksOf,
      discountCode,
    });
  } catch (error) {
    if (error instanceof DiscountCodeRefused) return codeRefusal(error.message, values, discountCode);
    if (error instanceof BelowMinimumChargeError) return refuse(error.message, values);
    if (error instanceof LineNotHeldError) {
      const line = bag.buyable.find((b) => b.item === error.item)!;
      const again = await findSellableByRef(context.db, refOfLine(line.line), now);
      const left = again.ok ? (again.item.available ?? 0) : 0;
      return refuse(
        left > 0
          ? `${error.item.displayName}: only ${left} left, and your bag asks for ${line.line.quantity}. ${CHANGE_BAG}`
          : `${error.message} ${CHANGE_BAG}`,
        values,
      );
    }
    if (error instanceof HoldLimitError) return refuse(error.message, values);
    throw error;
  }
  // The provider lists each line at what it was charged (a member's perks included), adding up to the amount.
  const charged =
    perksOf === undefined && !discountCode
      ? lines.map((l) => ({
          displayName: l.item.displayName,
          quantity: l.quantity,
          unitPriceCents: l.item.amountCents,
          discountCents: 0,
        }))
      : await context.db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(orderLines.id);
  // The bag remembers its order while the provider makes the checkout: neither waits for the other.
  // Should the provider fail, the bag points at an order that can never be paid, which empties nothing.
  const [sent] = await Promise.all([
    order.provider === FREE_PROVIDER
      ? confirmFreeOrder(context, order).then((redirectUrl) => ({ ok: true as const, redirectUrl, checkoutId: null }))
      : sendToPaymentPage(context, order, provider, providerLineItems(charged)),
    rememberCheckout(context.db, bagId, order.id),
  ]);
  if (!sent.ok) return { ok: false, toast: sent.toast, values };
  await afterCheckoutCreated(context, {
    news: news.ticked,
    customer: parsed.data,
    page: "/checkout?bag=1",
    sessionId,
    order,
    checkoutId: sent.checkoutId,
    bag: true,
    now,
  });
  return redirect(sent.redirectUrl, { headers: { "Set-Cookie": buyer.cookie } });
}

/**
 * What /checkout?bag=1 shows: the bag's lines and total, and whether it can be checked out as it stands.
 * A signed-in member sees each line's perk and the total the server will charge, by the same rule.
 */
export async function bagForCheckout(request: Request, context: Pick<AppContext, "db" | "clock" | "config">) {
  const now = context.clock.now();
  const { lines, rows } = await openBagWithRows(context.db, requestBagToken(request), now);
  const bag = await viewBag(context.db, lines, now, rows);
  const ready = bag.lines.length > 0 && bag.lines.every((l) => !l.problem);
  const seatGroups = seatGroupsOf(bag.buyable.map((b) => ({ item: b.item, quantity: b.line.quantity })));
  const memberId = ready ? await signedInMemberId(request, context) : undefined;
  const typed = typedCode(new URL(request.url).searchParams.get("code"));
  const found = ready
    ? await codeForPage(context.db, typed, now, context.config.payment.stockHoldMinutes)
    : { typed, code: null, error: null };
  let code: CodeView = { typed, error: found.error, note: null };
  if (memberId === undefined && !found.code)
    return { lines: bag.lines, totalCents: bag.subtotalCents, ready, seatGroups, perks: {}, code };
  const price = await priceForCheckout(
    context.db,
    bag.buyable.map((b) => ({ item: b.item, quantity: b.line.quantity })),
    memberId,
    now,
    { code: found.code },
  );
  if (found.code) code = { typed, ...pageCodeWords(price, found.code) };
  const perks: Record<number, LinePerk> = {};
  bag.buyable.forEach((b, i) => {
    const line = price.lines[i]!;
    if (line.reason) perks[b.line.id] = { reason: line.reason, chargedCents: line.chargedCents };
  });
  return { lines: bag.lines, totalCents: price.totalCents, ready, seatGroups, perks, code };
}

function refuse(reason: string, values: CheckoutActionResult["values"]): CheckoutActionResult {
  return { ok: false, toast: checkoutErrorToast(reason), values };
}

/**
 * The count cookie after a paid checkout (the confirmation page): the bag empties once its order is
 * paid, and the header's count follows. Null when the request has no bag, or its count is right.
 */
export async function bagCountAfterPayment(request: Request, context: Pick<AppContext, "db" | "clock" | "config">) {
  const token = requestBagToken(request);
  const { bagId, lines } = await openBag(context.db, token, context.clock.now());
  if (!bagId) return null;
  const count = unitsInBag(lines);
  if (bagCountFromCookies(request.headers.get("cookie") ?? "") === count) return null;
  return bagCookies(context, token, count);
}
