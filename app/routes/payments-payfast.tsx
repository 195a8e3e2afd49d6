import { data, Link } from "react-router";
import { formatRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import { payfastCheckoutForm } from "~/orders/payfast-checkout.server";
import type { Route } from "./+types/payments-payfast";

/** The form carries the buyer's name and email: no cache keeps it. */
const PRIVATE = { "Cache-Control": "private, no-store" };

export async function loader({ params, context }: Route.LoaderArgs) {
  const checkout = await payfastCheckoutForm(context, params.orderId);
  if (!checkout) return data({ checkout: null }, { status: 404, headers: PRIVATE });
  return data({ checkout }, { headers: PRIVATE });
}

export const headers: Route.HeadersFunction = () => PRIVATE;

/** The step between our checkout and PayFast's: the signed subscription form, posted by the buyer's browser. */
export default function PayfastCheckout({ loaderData }: Route.ComponentProps) {
  const { checkout } = loaderData;
  if (!checkout) {
    return (
      <section className="container-page py-24 text-center">
        <h1 className="font-display text-3xl">Payment not found</h1>
        <p className="mt-3 text-ink/80">This checkout is no longer open. Please start again from the plan's page.</p>
        <Link to="/" className="btn-primary mt-8">
          Back to Home
        </Link>
      </section>
    );
  }
  const { order, form } = checkout;
  return (
    <section className="container-page py-12 sm:py-16">
      <div className="card mx-auto max-w-lg p-6 sm:p-8">
        <p className="text-sm font-semibold tracking-widest text-accent uppercase">Card payment</p>
        <h1 className="mt-2 font-display text-3xl">Pay with PayFast</h1>
        <p className="mt-3 text-ink/85">
          Your card is charged {formatRand(order.amountCents)} today and the same amount every month, until you cancel
          from your account page.
        </p>
        <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
          <dt className="font-semibold">Plan</dt>
          <dd className="break-words">{order.itemName}</dd>
          <dt className="font-semibold">Monthly</dt>
          <dd>{formatRand(order.amountCents)}</dd>
          <dt className="font-semibold">Reference</dt>
          <dd className="font-mono">{order.reference}</dd>
        </dl>
        <form method="post" action={form.action} className="mt-8">
          {form.fields.map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="submit" className="btn-primary min-h-11">
            Continue to PayFast
          </button>
        </form>
      </div>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Pay with PayFast",
    description: "Card payment for a membership.",
    path: "/payments/payfast",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
