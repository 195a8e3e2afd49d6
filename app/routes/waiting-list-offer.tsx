import { data, Link } from "react-router";
import { CheckoutForm } from "~/components/checkout/CheckoutForm";
import { DiscountCodeForm } from "~/components/checkout/DiscountCodeForm";
import { formatRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import { priceOfferForPage, submitOfferCheckout } from "~/orders/offer-checkout.server";
import { attendeesOfRequest, keepAttendees } from "~/orders/checkout-attendees.server";
import { describeOfferDeadline } from "~/waitlist/offer-email.server";
import { findOffer, OFFER_ENDED, OFFER_USED } from "~/waitlist/offers.server";
import type { Route } from "./+types/waiting-list-offer";

const CLOSED_WORDS = {
  used: OFFER_USED + " If you did not finish paying, its seats went back to the waiting list.",
  expired: OFFER_ENDED,
  removed: "This offer was withdrawn: you were taken off the waiting list. Please contact us if that is a mistake.",
  unknown: "We could not find this offer. Please use the link from your email as it is.",
} as const;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const offer = await findOffer(context.db, params.token, context.clock.now());
  if (offer.state !== "open") {
    // Said in words, with a status a crawler or a script can read too.
    return data(
      { open: false as const, reason: CLOSED_WORDS[offer.state], pagePath: offer.pagePath ?? "/events" },
      { status: offer.state === "unknown" ? 404 : 410 },
    );
  }
  const { entry, item, expiresAt } = offer;
  return {
    open: true as const,
    seats: entry.seats,
    name: entry.name,
    itemName: item.itemName,
    description: item.description,
    priceCents: item.priceCents,
    // The seats' total for whoever is signed in, with the code in the URL, as the action will charge it.
    price: await priceOfferForPage(request, context, offer),
    heldUntil: describeOfferDeadline(expiresAt),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const typed = await attendeesOfRequest(request);
  const submitted = await submitOfferCheckout(request, params.token, context);
  if (submitted instanceof Response) return submitted;
  const result = keepAttendees(submitted, typed);
  return data(result, { status: result.toast.title === "Unexpected Error" ? 500 : 400 });
}

export default function WaitingListOfferPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="container-page py-10 sm:py-14">
      <h1 className="font-display text-4xl text-ink sm:text-5xl">Checkout</h1>
      {!loaderData.open ? (
        <div className="card mt-8 max-w-2xl p-6" role="status">
          <h2 className="font-display text-2xl">This offer cannot be used</h2>
          <p className="mt-3 text-ink/85">{loaderData.reason}</p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link to={loaderData.pagePath} className="btn-primary min-h-11">
              See the event
            </Link>
            <Link to="/contact" className="btn-outline min-h-11">
              Contact Us
            </Link>
          </div>
        </div>
      ) : (
        <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_1.3fr]">
          <div className="min-w-0 space-y-6">
            <section className="card p-6" aria-labelledby="summary-heading">
              <h2 id="summary-heading" className="font-display text-2xl">
                Order Summary
              </h2>
              <p className="mt-4 text-lg font-semibold break-words">{loaderData.itemName}</p>
              {loaderData.description ? (
                <p className="mt-1 text-sm break-words text-ink/80">{loaderData.description}</p>
              ) : null}
              <dl className="mt-4 space-y-2 border-t border-ink/10 pt-3">
                <div className="flex flex-wrap items-baseline justify-between gap-x-4">
                  <dt className="font-semibold">Seats held for you</dt>
                  <dd data-testid="offer-seats">{loaderData.seats}</dd>
                </div>
                {loaderData.price.reason ? (
                  <>
                    <div className="flex flex-wrap items-baseline justify-between gap-x-4">
                      <dt className="font-semibold">Price</dt>
                      <dd data-testid="checkout-list-price">{formatRand(loaderData.price.listCents)}</dd>
                    </div>
                    <div className="flex items-baseline justify-between gap-4" data-testid="checkout-perk">
                      <dt className="min-w-0 text-ink/85">{loaderData.price.reason}</dt>
                      <dd className="shrink-0">
                        −{formatRand(loaderData.price.listCents - loaderData.price.totalCents)}
                      </dd>
                    </div>
                  </>
                ) : null}
                <div className="flex flex-wrap items-baseline justify-between gap-x-4">
                  <dt className="font-semibold">Total</dt>
                  <dd className="font-display text-2xl" data-testid="checkout-total">
                    {formatRand(loaderData.price.totalCents)}
                  </dd>
                </div>
              </dl>
              <p className="mt-4 rounded-md bg-honey/20 p-3 text-sm text-ink" data-testid="offer-held-until">
                {loaderData.name}, these seats are held for you until {loaderData.heldUntil}. Nobody else can buy them
                before then.
              </p>
            </section>
            <DiscountCodeForm
              view={
                actionData?.codeError
                  ? { typed: actionData.discountCode ?? "", error: actionData.codeError, note: null }
                  : loaderData.price.code
              }
              keep={{}}
            />
          </div>
          <div className="card p-6">
            <h2 className="mb-4 font-display text-2xl">Your Details</h2>
            <CheckoutForm
              type=""
              item=""
              itemName={loaderData.itemName}
              amountCents={loaderData.price.totalCents}
              result={actionData ?? null}
              seatGroups={[{ name: loaderData.itemName, seats: loaderData.seats }]}
            />
          </div>
        </div>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches, params }) =>
  seo({
    title: "Checkout",
    description: "Check out the seats held for you from the waiting list.",
    path: `/waiting-list/offer/${params.token}`,
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
