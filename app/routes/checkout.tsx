import { useEffect } from "react";
import { data, Link, useNavigate } from "react-router";
import { trackEvent } from "~/analytics/track";
import { CheckoutForm } from "~/components/checkout/CheckoutForm";
import { OrderSummary, type SummaryItem } from "~/components/checkout/OrderSummary";
import { seo, siteUrlFrom } from "~/lib/seo";
import { submitCheckout } from "~/orders/checkout-action.server";
import { DEFAULT_CHECKOUT, findSellableForPage } from "~/orders/sellable.server";
import type { Route } from "./+types/checkout";

type Offer =
  | { kind: "sellable"; item: SummaryItem }
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
  const query = new URL(request.url).searchParams;
  // `price` is read by nobody: the database prices every item (DESIGN.md section 1).
  const type = (query.get("type") ?? "").slice(0, 40);
  const item = (query.get("item") ?? "").slice(0, 300);
  const back = BACK_FALLBACK[type] ?? "/";
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
    return { type, item, back, offer };
  }
  const found = await findSellableForPage(context, type, item, context.clock.now());
  const offer: Offer = found.ok
    ? {
        kind: "sellable",
        item: {
          name: found.item.displayName,
          description: found.item.description,
          amountCents: found.item.amountCents,
          orderType: found.item.orderType,
        },
      }
    : { kind: "unavailable", reason: found.reason };
  return { type, item, back, offer };
}

export async function action({ request, context }: Route.ActionArgs) {
  const result = await submitCheckout(request, context);
  if (result instanceof Response) return result;
  return data(result, { status: result.toast.title === "Unexpected Error" ? 500 : 400 });
}

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const { type, item, back, offer } = loaderData;
  const navigate = useNavigate();
  useEffect(() => {
    trackEvent("checkout_page_viewed", { pagePath: "/checkout" });
  }, []);

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
      ) : (
        <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_1.3fr]">
          <OrderSummary item={offer.item} />
          <div className="card p-6">
            <h2 className="mb-4 font-display text-2xl">Your Details</h2>
            {offer.kind === "sellable" ? (
              <CheckoutForm
                type={type}
                item={item}
                itemName={offer.item.name}
                amountCents={offer.item.amountCents}
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
