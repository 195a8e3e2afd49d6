import { data, Link, redirect } from "react-router";
import { assertSameOrigin } from "~/auth/cookies.server";
import { OrderContentsView } from "~/components/orders/OrderContentsView";
import { hitRateLimit } from "~/contact/rate-limit.server";
import { requestClientKey } from "~/lib/client-address.server";
import { seo, siteUrlFrom } from "~/lib/seo";
import { orderIdForPageToken } from "~/orders/order-access.server";
import { enterAccountAsBuyer, ORDER_PAGE_RATE_LIMIT, privateOrderPage } from "~/orders/order-contents.server";
import type { Route } from "./+types/order";

/** One buyer's order: never stored by a shared cache, never indexed (robots.txt keeps crawlers out too). */
const PRIVATE = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!(await hitRateLimit(context.db, ORDER_PAGE_RATE_LIMIT, requestClientKey(context), context.clock.now()))) {
    return data({ status: "limited" as const }, { status: 429, headers: { ...PRIVATE, "Retry-After": "600" } });
  }
  const page = await privateOrderPage(request, context, params.token);
  if (!page) return data({ status: "missing" as const }, { status: 404, headers: PRIVATE });
  return data({ status: "ok" as const, ...page }, { headers: PRIVATE });
}

/** "Go to your account", from the browser that bought the membership. */
export async function action({ request, params, context }: Route.ActionArgs) {
  assertSameOrigin(request, context);
  const entered = await enterAccountAsBuyer(request, context, await orderIdForPageToken(context.db, params.token));
  if (entered.ok) throw redirect("/account", { headers: { "Set-Cookie": entered.cookie } });
  return data({ accountProblem: entered.message }, { status: 403, headers: PRIVATE });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

const STATE_WORDS = {
  success: "Paid: everything you bought is below.",
  pending: "Payment pending: this page shows your order once the payment is complete.",
  failed: "Not paid: the payment did not go through, and nothing was charged for this order.",
  refunded: "Refunded: the money went back to the card it was paid with.",
} as const;

export default function OrderPage({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.status === "limited") {
    return (
      <section className="container-page py-16 text-center">
        <h1 className="font-display text-3xl">Too many order look-ups</h1>
        <p className="mt-4 text-ink/85">Please wait ten minutes and open your order again. Your order is safe.</p>
      </section>
    );
  }
  if (loaderData.status === "missing") {
    return (
      <section className="container-page py-16 text-center">
        <h1 className="font-display text-3xl">Order not found</h1>
        <p className="mt-4 text-ink/85">
          Check that you opened the whole link from your confirmation email, or contact us with your order reference.
        </p>
        <Link to="/contact" className="btn-primary mt-8 min-h-11">
          Contact us
        </Link>
      </section>
    );
  }
  const { contents, canEnterAccount } = loaderData;
  return (
    <section className="container-page py-10 sm:py-14">
      <div className="card mx-auto max-w-2xl p-6 sm:p-10">
        <h1 className="font-display text-3xl sm:text-4xl">Your order</h1>
        <p className="mt-3 text-ink/85">This page is private to you: keep the link to find your order again.</p>
        <div className="mt-6 rounded-2xl bg-cream-deep p-4">
          <p className="text-sm font-semibold uppercase tracking-wide text-ink/80">Order Reference</p>
          <p className="mt-1 break-all font-mono text-lg" data-testid="order-reference">
            {contents.reference}
          </p>
        </div>
        <p className="mt-4 font-semibold" data-testid="order-state">
          {STATE_WORDS[contents.state]}
        </p>
      </div>
      {contents.state === "success" ? (
        <OrderContentsView
          contents={contents}
          canEnterAccount={canEnterAccount}
          accountProblem={actionData?.accountProblem}
        />
      ) : null}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Your Order",
    description: "Your Honey Bee order.",
    path: "/order",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
