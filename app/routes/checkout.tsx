import { useEffect } from "react";
import { data, Link, useNavigate } from "react-router";
import { trackEvent } from "~/analytics/track";
import { CheckoutForm } from "~/components/checkout/CheckoutForm";
import { OrderSummary, type SummaryItem } from "~/components/checkout/OrderSummary";
import { signedInMemberId } from "~/memberships/member-session.server";
import { MAX_SEATS_PER_CHECKOUT, sellsSeats } from "~/orders/checkout-seats";
import { priceForPage, type PagePrice } from "~/orders/order-pricing.server";
import { BagSummary } from "~/components/bag/BagSummary";
import { ActionToast } from "~/components/ui/toast";
import { bagForCheckout, submitBagCheckout } from "~/bag/bag-checkout.server";
import { EMPTY_BAG_REASON } from "~/bag/bag-limits";
import type { BagLineView } from "~/bag/bag-view.server";
import type { SeatGroup } from "~/tickets/attendees";
import { attendeesOfRequest, keepAttendees } from "~/orders/checkout-attendees.server";
import { seo, siteUrlFrom } from "~/lib/seo";
import { rowChoiceFrom, submitCheckout } from "~/orders/checkout-action.server";
import { DEFAULT_CHECKOUT, findSellableForPage } from "~/orders/sellable.server";
import { DiscountCodeForm } from "~/components/checkout/DiscountCodeForm";
import type { CodeView } from "~/pricing/discount-code-words";
import {
  CARD_SUBSCRIPTION_CODE_REASON,
  codeForPage,
  pageCodeWords,
  typedCode,
} from "~/pricing/discount-code-checkout.server";
import { payfastEnabled } from "~/payments/payfast/providers.server";
import { checkoutSignInHref, perkCouldLower } from "~/memberships/checkout-sign-in";
import { MemberSignInOffer } from "~/components/checkout/MemberSignInOffer";
import type { Route } from "./+types/checkout";

type Offer =
  | {
      kind: "bag";
      lines: BagLineView[];
      totalCents: number;
      ready: boolean;
      seatGroups: SeatGroup[];
      perks: Record<number, { reason: string; chargedCents: number }>;
      code: CodeView;
    }
  | { kind: "sellable"; item: SummaryItem; price: PagePrice; code: CodeView; codeKeep: Record<string, string> }
  | { kind: "default"; item: SummaryItem }
  | { kind: "unavailable"; reason: string };

/** Where Back goes when there is no page to go back to (opened from a link or without JavaScript). */
const BACK_FALLBACK: Record<string, string> = {
  product: "/styled-collections",
  service: "/consultation-services",
  membership: "/#membership-heading",
  workshop: "/workshop/tablecloth-skirt",
  ticket: "/events",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = url.searchParams;
  // `price` is read by nobody: the database prices every item (DESIGN.md section 1).
  const type = (query.get("type") ?? "").slice(0, 40);
  const item = (query.get("item") ?? "").slice(0, 300);
  const back = BACK_FALLBACK[type] ?? "/";
  if (query.get("bag") === "1") {
    const bag = await bagForCheckout(request, context);
    const offer: Offer = { kind: "bag", ...bag };
    const signedIn = bag.ready && (await signedInMemberId(request, context)) !== undefined;
    const memberSignIn = bag.ready && !signedIn ? checkoutSignInHref(request.url) : null;
    return { type, item, back: "/bag", offer, memberSignIn };
  }
  if (!type && !item) {
    const offer: Offer = {
      kind: "default",
      item: {
        name: DEFAULT_CHECKOUT.name,
        description: null,
        amountCents: DEFAULT_CHECKOUT.amountCents,
        orderType: null,
      },
    };
    return { type, item, back, offer, memberSignIn: null };
  }
  const now = context.clock.now();
  const found = await findSellableForPage(context, type, item, now, rowChoiceFrom(null, url));
  const typed = typedCode(query.get("code"));
  // With PayFast keys a membership is a card subscription, whose renewals a code must not lower.
  const cardOnly = found.ok && found.item.orderType === "membership" && payfastEnabled(context.config);
  const code = !found.ok
    ? null
    : cardOnly && typed
      ? { typed, code: null, error: CARD_SUBSCRIPTION_CODE_REASON }
      : await codeForPage(context.db, typed, now, context.config.payment.stockHoldMinutes);
  const memberId = found.ok ? await signedInMemberId(request, context) : undefined;
  // The page shows what the action will charge, priced by the same rule (issue 40).
  const price = found.ok
    ? await priceForPage(
        context.db,
        found.item,
        memberId,
        now,
        sellsSeats(found.item.orderType) ? MAX_SEATS_PER_CHECKOUT : 1,
        code?.code,
      )
    : null;
  const offer: Offer = found.ok
    ? {
        price: price!,
        // The code's form sends the page's other values back with it, so the same item (and size) is priced.
        codeKeep: Object.fromEntries(
          ["type", "item", "option1", "option2"].flatMap((k) =>
            query.get(k) ? [[k, query.get(k)!.slice(0, 300)]] : [],
          ),
        ),
        code: {
          typed: code!.typed,
          ...(code!.code ? pageCodeWords(price!, code!.code) : { error: code!.error, note: null }),
        },
        kind: "sellable",
        item: {
          name: found.item.displayName,
          description: found.item.description,
          amountCents: found.item.amountCents,
          orderType: found.item.orderType,
        },
      }
    : { kind: "unavailable", reason: found.reason };
  const memberSignIn =
    found.ok && memberId === undefined && perkCouldLower(found.item.orderType) ? checkoutSignInHref(request.url) : null;
  return { type, item, back, offer, memberSignIn };
}

export async function action({ request, context }: Route.ActionArgs) {
  const bag = new URL(request.url).searchParams.get("bag") === "1";
  const typed = await attendeesOfRequest(request);
  const submitted = bag ? await submitBagCheckout(request, context) : await submitCheckout(request, context);
  if (submitted instanceof Response) return submitted;
  const result = keepAttendees(submitted, typed);
  return data(result, { status: result.toast.title === "Unexpected Error" ? 500 : 400 });
}

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const { type, item, back, offer, memberSignIn } = loaderData;
  const navigate = useNavigate();
  useEffect(() => {
    trackEvent("checkout_page_viewed", { pagePath: "/checkout" });
  }, []);
  const bagTotal = offer.kind === "bag" ? offer.totalCents : null;
  useEffect(() => {
    if (bagTotal !== null) trackEvent("checkout_started", { pagePath: "/checkout", metadata: { amount: bagTotal } });
  }, [bagTotal]);

  function goBack(event: React.MouseEvent<HTMLAnchorElement>) {
    if (window.history.length > 1) {
      event.preventDefault();
      navigate(-1);
    }
  }

  return (
    <section className="container-page py-10 sm:py-14">
      <Link to={back} onClick={goBack} className="btn-outline">
        ← Back
      </Link>
      <h1 className="mt-6 font-display text-4xl text-ink sm:text-5xl">Checkout</h1>
      {offer.kind === "unavailable" ? (
        <div className="card mt-8 max-w-2xl p-6" role="status">
          <h2 className="font-display text-2xl">This item cannot be bought online</h2>
          <p className="mt-3 text-ink/85">{offer.reason}</p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link to="/styled-collections" className="btn-primary">
              Browse Collections
            </Link>
            <Link to="/contact" className="btn-outline">
              Contact Us
            </Link>
          </div>
        </div>
      ) : offer.kind === "bag" ? (
        <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_1.3fr]">
          <div className="space-y-6">
            <BagSummary lines={offer.lines} totalCents={offer.totalCents} perks={offer.perks} />
            {offer.ready ? (
              <DiscountCodeForm
                view={
                  actionData?.codeError
                    ? { typed: actionData.discountCode ?? "", error: actionData.codeError, note: null }
                    : offer.code
                }
                keep={{ bag: "1" }}
              />
            ) : null}
          </div>
          <div className="card p-6">
            <h2 className="mb-4 font-display text-2xl">Your Details</h2>
            <MemberSignInOffer href={memberSignIn} />
            {offer.ready ? (
              <CheckoutForm
                type=""
                item=""
                itemName={offer.lines.map((l) => l.name).join(", ")}
                amountCents={offer.totalCents}
                result={actionData ?? null}
                seatGroups={offer.seatGroups}
              />
            ) : (
              <div role="status">
                <ActionToast message={actionData?.toast} />
                <p className="text-ink/85">
                  {offer.lines.length
                    ? "Something in your bag cannot be bought as it stands. Please change your bag first."
                    : EMPTY_BAG_REASON}
                </p>
                <Link to="/bag" className="btn-primary mt-6">
                  Back to your bag
                </Link>
              </div>
            )}
          </div>
        </div>
      ) : (
        <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_1.3fr]">
          <div className="space-y-6">
            <OrderSummary
              item={offer.item}
              perk={
                offer.kind === "sellable" && offer.price.reason
                  ? { reason: offer.price.reason, listCents: offer.price.listCents, totalCents: offer.price.totalCents }
                  : null
              }
            />
            {offer.kind === "sellable" ? (
              <DiscountCodeForm
                view={
                  actionData?.codeError
                    ? { typed: actionData.discountCode ?? "", error: actionData.codeError, note: null }
                    : offer.code
                }
                keep={offer.codeKeep}
              />
            ) : null}
          </div>
          <div className="card p-6">
            <h2 className="mb-4 font-display text-2xl">Your Details</h2>
            <MemberSignInOffer href={memberSignIn} />
            {offer.kind === "sellable" ? (
              <CheckoutForm
                type={type}
                item={item}
                itemName={offer.item.name}
                amountCents={offer.price.totalCents}
                totalsBySeats={offer.price.totalsBySeats}
                result={actionData ?? null}
              />
            ) : (
              <div role="status">
                <p className="text-ink/85">
                  Nothing has been chosen yet. Pick a piece, a ticket or a membership and its Order Now button brings
                  you back here with the right price.
                </p>
                <div className="mt-6 flex flex-wrap gap-3">
                  <Link to="/styled-collections" className="btn-primary">
                    Browse Collections
                  </Link>
                  <Link to="/events" className="btn-outline">
                    See Events
                  </Link>
                </div>
              </div>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Checkout",
    description: "Complete your order and pay securely by card in South African rand.",
    path: "/checkout",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
