import { data, Form, Link, useNavigation } from "react-router";
import { textFields, validateForm } from "~/lib/form";
import { formatRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import { dayMonthYear } from "~/lib/dates-in-words";
import { runSimulatorIntent, simulatorOrder } from "~/orders/simulator-actions.server";
import { runSimulatorSubscriptionIntent, simulatorSubscriptionView } from "~/orders/simulator-subscription.server";
import { simulatorSchema } from "~/payments/simulator-schema";
import type { Route } from "./+types/payments-simulator";

export async function loader({ params, context }: Route.LoaderArgs) {
  const order = await simulatorOrder(context, params.orderId);
  if (!order) return data({ order: null, card: null }, { status: 404 });
  return {
    order: {
      id: order.id,
      reference: order.reference,
      itemName: order.itemName,
      amountCents: order.amountCents,
      status: order.status,
    },
    card: await simulatorSubscriptionView(context, order),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const order = await simulatorOrder(context, params.orderId);
  if (!order) return data({ error: "Payment not found" }, { status: 404 });
  const checked = validateForm(simulatorSchema, textFields(await request.formData(), ["intent"]));
  if (!checked.ok) return data({ error: checked.fieldErrors.intent }, { status: 400 });
  const { intent } = checked.data;
  if (intent === "pay" || intent === "decline" || intent === "cancel")
    return runSimulatorIntent(context, order, intent);
  const result = await runSimulatorSubscriptionIntent(context, order, intent);
  if (result instanceof Response) return result;
  return "error" in result ? data(result, { status: 409 }) : result;
}

export default function PaymentSimulator({ loaderData, actionData }: Route.ComponentProps) {
  const { order, card } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  if (!order) {
    return (
      <section className="container-page py-24 text-center">
        <h1 className="font-display text-3xl">Payment not found</h1>
        <Link to="/" className="btn-primary mt-8">
          Back to Home
        </Link>
      </section>
    );
  }
  return (
    <section className="container-page py-12 sm:py-16">
      <div className="card mx-auto max-w-lg p-6 sm:p-8">
        <p className="text-sm font-semibold tracking-widest text-accent uppercase">Test payment</p>
        <h1 className="mt-2 font-display text-3xl">Payment Simulator</h1>
        <p className="mt-3 text-ink/85">
          This page stands in for the card payment page. No card is charged: choose what the payment should do.
        </p>
        <dl className="mt-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
          <dt className="font-semibold">Item</dt>
          <dd>{order.itemName}</dd>
          <dt className="font-semibold">Amount</dt>
          <dd data-testid="simulator-amount">{formatRand(order.amountCents)}</dd>
          <dt className="font-semibold">Reference</dt>
          <dd className="font-mono">{order.reference}</dd>
        </dl>
        {actionData && "error" in actionData ? (
          <p role="alert" className="mt-4 text-red-800">
            {actionData.error}
          </p>
        ) : null}
        {actionData && "message" in actionData ? (
          <p role="status" className="mt-4 font-semibold">
            {actionData.message}
          </p>
        ) : null}
        {card?.subscription ? (
          <section aria-labelledby="card-subscription" className="mt-8 border-t border-ink/15 pt-6">
            <h2 id="card-subscription" className="font-display text-2xl">
              Card subscription
            </h2>
            <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
              <dt className="font-semibold">Status</dt>
              <dd data-testid="simulator-subscription-status">{card.subscription.status.toLowerCase()}</dd>
              <dt className="font-semibold">Monthly</dt>
              <dd>{formatRand(card.subscription.amountCents)}</dd>
              <dt className="font-semibold">Next charge</dt>
              <dd>
                {card.subscription.status === "ACTIVE" ? dayMonthYear(card.subscription.runDate) : "none"}
                {card.subscription.failNext ? " (will be declined)" : ""}
              </dd>
              <dt className="font-semibold">Paid until</dt>
              <dd data-testid="simulator-paid-until">
                {card.subscription.paidUntil ? dayMonthYear(card.subscription.paidUntil) : "not yet"}
              </dd>
            </dl>
            {card.subscription.status === "ACTIVE" ? (
              <Form method="post" className="mt-6 flex flex-wrap gap-3">
                <button type="submit" name="intent" value="charge" className="btn-primary" disabled={busy}>
                  Run next month's charge
                </button>
                <button type="submit" name="intent" value="fail-next" className="btn-dark" disabled={busy}>
                  Fail next charge
                </button>
                <button type="submit" name="intent" value="provider-cancel" className="btn-outline" disabled={busy}>
                  Cancel at the provider
                </button>
              </Form>
            ) : null}
          </section>
        ) : order.status === "pending" ? (
          <Form method="post" className="mt-8 flex flex-wrap gap-3">
            <button type="submit" name="intent" value="pay" className="btn-primary" disabled={busy}>
              Pay {formatRand(order.amountCents)}
            </button>
            {card?.offered ? (
              <button type="submit" name="intent" value="subscribe" className="btn-primary" disabled={busy}>
                Subscribe: {formatRand(order.amountCents)} a month
              </button>
            ) : null}
            <button type="submit" name="intent" value="decline" className="btn-dark" disabled={busy}>
              Decline
            </button>
            <button type="submit" name="intent" value="cancel" className="btn-outline" disabled={busy}>
              Cancel
            </button>
          </Form>
        ) : (
          <div className="mt-8">
            <p role="status">This payment is no longer open (order {order.status}).</p>
            <Link to={`/order-confirmation?orderId=${order.id}`} className="btn-primary mt-4">
              View Order
            </Link>
          </div>
        )}
      </div>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Payment Simulator",
    description: "Test payment page.",
    path: "/payments/simulator",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
