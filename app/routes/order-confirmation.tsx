import { useEffect } from "react";
import { Link } from "react-router";
import { trackEvent, type AnalyticsEventType } from "~/analytics/track";
import { seo, siteUrlFrom } from "~/lib/seo";
import { confirmationView, type ConfirmationState } from "~/orders/confirmation.server";
import type { Route } from "./+types/order-confirmation";
import { WhatsAppLink } from "~/components/contact/WhatsAppLink";

export async function loader({ request, context }: Route.LoaderArgs) {
  return confirmationView(new URL(request.url).searchParams, context);
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

export default function OrderConfirmation({ loaderData }: Route.ComponentProps) {
  const { state, reference, orderId, checkoutId, retry } = loaderData;
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
            state === "success" ? "bg-honey text-ink" : state === "failed" ? "bg-red-800 text-white" : "bg-cream-deep text-ink"
          }`}
        >
          {text.icon}
        </p>
        <h1 className="mt-6 font-display text-3xl sm:text-4xl">{text.title}</h1>
        <p className="mt-3 text-ink/85">{text.description}</p>
        {reference ? (
          <div className="mt-6 rounded-2xl bg-cream-deep p-4">
            <p className="text-sm font-semibold uppercase tracking-wide text-ink/80">Order Reference</p>
            <p className="mt-1 break-all font-mono text-lg" data-testid="order-reference">{reference}</p>
          </div>
        ) : null}
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {state === "success" ? <Link to="/styled-collections" className="btn-primary">Continue Shopping</Link> : null}
          {state === "failed" ? <Link to={`/checkout${retry ?? ""}`} className="btn-primary">Try Again</Link> : null}
          <Link to="/" className="btn-outline">Back to Home</Link>
        </div>
        <WhatsAppLink lead="Questions about your order?" paragraphClassName="mt-6" />
      </div>
      {state === "success" ? (
        <section className="card mx-auto mt-8 max-w-2xl p-6 sm:p-8" aria-labelledby="next-heading">
          <h2 id="next-heading" className="font-display text-2xl">What's Next?</h2>
          <ul className="mt-4 list-disc space-y-2 pl-5 text-ink/85">
            <li>You will receive a confirmation email with your order details.</li>
            <li>Your order will be processed within 1-2 business days.</li>
            <li>We will send you updates on your order status by email.</li>
          </ul>
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
