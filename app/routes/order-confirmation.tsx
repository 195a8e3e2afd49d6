import { useEffect } from "react";
import { data, Link, redirect } from "react-router";
import { assertSameOrigin } from "~/auth/cookies.server";
import { bagCountAfterPayment } from "~/bag/bag-checkout.server";
import { trackEvent, type AnalyticsEventType } from "~/analytics/track";
import { OrderContentsView } from "~/components/orders/OrderContentsView";
import { seo, siteUrlFrom } from "~/lib/seo";
import { findSubscriptionByOrder } from "~/memberships/card-subscriptions.server";
import { confirmationView, type ConfirmationState } from "~/orders/confirmation.server";
import { buyerConfirmation, enterAccountAsBuyer } from "~/orders/order-contents.server";
import type { Route } from "./+types/order-confirmation";
import { WhatsAppLink } from "~/components/contact/WhatsAppLink";

export async function loader({ request, context }: Route.LoaderArgs) {
  const view = await confirmationView(new URL(request.url).searchParams, context);
  // Only the browser that made the checkout sees what the order holds (decision 106).
  const buyer = view.fromOrder ? await buyerConfirmation(request, context, view.orderId, view.state) : null;
  // A membership bought by card subscription renews by itself: the next steps say so.
  const subscription =
    buyer?.contents.membership && view.orderId ? await findSubscriptionByOrder(context.db, view.orderId) : undefined;
  const card = subscription && subscription.status !== "pending" ? { provider: subscription.provider } : null;
  // A paid bag empties; the header's count cookie follows.
  const bagCookies = view.state === "success" ? await bagCountAfterPayment(request, context) : null;
  if (!bagCookies) return { ...view, buyer, card };
  const headers = new Headers();
  for (const cookie of bagCookies) headers.append("Set-Cookie", cookie);
  return data({ ...view, buyer, card }, { headers });
}

/** "Go to your account": signs the member of this paid order in, from the browser that bought it. */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request, context);
  const orderId = new URL(request.url).searchParams.get("orderId");
  const entered = await enterAccountAsBuyer(request, context, orderId);
  if (entered.ok) throw redirect("/account", { headers: { "Set-Cookie": entered.cookie } });
  return data({ accountProblem: entered.message }, { status: 403 });
}

const TEXT: Record<ConfirmationState, { icon: string; title: string; description: string }> = {
  success: {
    icon: "✓",
    title: "Payment Successful!",
    description: "Thank you for your purchase. You will receive a confirmation email shortly.",
  },
  failed: {
    icon: "✕",
    title: "Payment Failed",
    description: "Your payment could not be processed. Please try again or contact support.",
  },
  pending: {
    icon: "…",
    title: "Payment Pending",
    description: "Your payment is being processed. You will receive an email once it is complete.",
  },
  refunded: {
    icon: "↺",
    title: "Payment Refunded",
    description: "This order has been refunded. The money goes back to the card it was paid with.",
  },
};

const PURCHASE_EVENT: Record<ConfirmationState, AnalyticsEventType> = {
  success: "purchase_success",
  failed: "purchase_failed",
  pending: "purchase_pending",
  refunded: "purchase_pending",
};

/** The spec's "What's Next?" for goods and services; tickets and memberships are delivered on this page already. */
const NEXT_STEPS: Record<"spec" | "tickets" | "membership" | "card", string[]> = {
  spec: [
    "You will receive a confirmation email with your order details.",
    "Your order will be processed within 1-2 business days.",
    "We will send you updates on your order status by email.",
  ],
  tickets: [
    "Your tickets are above: show a QR code at the door, on your phone or printed.",
    "Your order page keeps them for you: bookmark it.",
    "You will also receive a confirmation email with your tickets.",
  ],
  membership: [
    "Your membership is active now: your account shows it, with your payments and renewals.",
    "We will email you a Renew link before your month runs out.",
    "You will also receive a confirmation email with your order details.",
  ],
  card: [
    "Your membership is active now: your account shows it, with your payments and renewals.",
    "Your card is charged each month; we email you 3 days before each charge, and you can cancel any time from your account.",
    "You will also receive a confirmation email with your order details.",
  ],
};

export default function OrderConfirmation({ loaderData, actionData }: Route.ComponentProps) {
  const { state, reference, orderId, checkoutId, retry, buyer, card } = loaderData;
  const steps =
    NEXT_STEPS[
      buyer?.contents.tickets.length ? "tickets" : buyer?.contents.membership ? (card ? "card" : "membership") : "spec"
    ];
  const text = TEXT[state];

  useEffect(() => {
    const metadata = { paymentStatus: state, orderId, checkoutId };
    trackEvent("order_confirmation_viewed", { pagePath: "/order-confirmation", metadata });
    trackEvent(PURCHASE_EVENT[state], { pagePath: "/order-confirmation", metadata });
  }, [state, orderId, checkoutId]);

  return (
    <section className="container-page py-12 sm:py-16">
      <div className="card mx-auto max-w-2xl p-6 text-center sm:p-10">
        <p
          aria-hidden="true"
          className={`mx-auto flex h-16 w-16 items-center justify-center rounded-full text-3xl font-bold ${
            state === "success"
              ? "bg-honey text-ink"
              : state === "failed"
                ? "bg-red-800 text-white"
                : "bg-cream-deep text-ink"
          }`}
        >
          {text.icon}
        </p>
        <h1 className="mt-6 font-display text-3xl sm:text-4xl">{text.title}</h1>
        <p className="mt-3 text-ink/85">{text.description}</p>
        {reference ? (
          <div className="mt-6 rounded-2xl bg-cream-deep p-4">
            <p className="text-sm font-semibold uppercase tracking-wide text-ink/80">Order Reference</p>
            <p className="mt-1 break-all font-mono text-lg" data-testid="order-reference">
              {reference}
            </p>
          </div>
        ) : null}
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {state === "success" ? (
            <Link to="/styled-collections" className="btn-primary">
              Continue Shopping
            </Link>
          ) : null}
          {state === "failed" ? (
            <Link to={`/checkout${retry ?? ""}`} className="btn-primary">
              Try Again
            </Link>
          ) : null}
          <Link to="/" className="btn-outline">
            Back to Home
          </Link>
        </div>
        <WhatsAppLink lead="Questions about your order?" paragraphClassName="mt-6" />
      </div>
      {buyer ? (
        <OrderContentsView
          contents={buyer.contents}
          canEnterAccount={buyer.canEnterAccount}
          accountProblem={actionData?.accountProblem}
        />
      ) : null}
      {state === "success" ? (
        <section className="card mx-auto mt-8 max-w-2xl p-6 sm:p-8" aria-labelledby="next-heading">
          <h2 id="next-heading" className="font-display text-2xl">
            What's Next?
          </h2>
          <ul className="mt-4 list-disc space-y-2 pl-5 text-ink/85">
            {steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ul>
          {buyer ? (
            <p className="mt-4">
              <Link to={buyer.orderPagePath} className="font-semibold text-accent underline underline-offset-4">
                Your order page
              </Link>{" "}
              <span className="text-ink/85">is private to you: bookmark it to find this order again.</span>
            </p>
          ) : null}
          {card?.provider === "simulator" ? (
            <p className="mt-4">
              <Link
                to={`/payments/simulator/${orderId}`}
                className="font-semibold text-accent underline underline-offset-4"
              >
                Open the payment simulator
              </Link>{" "}
              <span className="text-ink/85">
                to run next month's charge, fail it or cancel at the provider (test only).
              </span>
            </p>
          ) : null}
        </section>
      ) : null}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Order Confirmation",
    description: "The status of your Honey Bee order.",
    path: "/order-confirmation",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
