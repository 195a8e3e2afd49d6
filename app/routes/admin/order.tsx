import { data, Form, Link, redirect, useNavigation } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { mailtoHref } from "~/admin/mailto";
import { AdminPageHeader, adminPageClass, adminSectionClass } from "~/components/admin/AdminShell";
import { TextAreaField } from "~/components/admin/fields";
import { OrderActions } from "~/components/admin/order/OrderActions";
import { OrderPaymentPanel } from "~/components/admin/order/OrderPaymentPanel";
import { OrderRecord } from "~/components/admin/order/OrderRecord";
import { OrderStatus } from "~/components/admin/OrderStatus";
import { telHref } from "~/lib/phone";
import { seo, siteUrlFrom } from "~/lib/seo";
import { adminOrderView } from "~/orders/admin-order-view.server";
import { refundWords } from "~/orders/fulfilment-words";
import { isOrderId } from "~/orders/orders.server";
import { ownerOrderAction } from "~/orders/owner-order-action.server";
import type { Route } from "./+types/order";

function orderIdFrom(params: { id?: string }): string {
  if (!isOrderId(params.id)) throw data({ error: "Order not found" }, { status: 404 });
  return params.id;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const view = await adminOrderView(context.db, orderIdFrom(params));
  if (!view) throw data({ error: "Order not found" }, { status: 404 });
  // One key per page shown: a double click on a form sends it twice, and the second finds the first's work.
  return { key: crypto.randomUUID(), ...view };
}

type ActionAnswer = { intent: string; error: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = orderIdFrom(params);
  const done = await ownerOrderAction(context, id, await request.formData());
  if (!done) throw data({ error: "Order not found" }, { status: 404 });
  if (!done.ok) return data<ActionAnswer>({ intent: done.intent, error: done.error }, { status: done.status });
  const toast = setToastCookie({ title: done.title, description: done.description });
  return redirect(`/admin/orders/${id}`, { headers: { "Set-Cookie": toast } });
}

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { order, lines, refunds, history, emails } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errorFor = (intent: string) => (actionData?.intent === intent ? actionData.error : undefined);
  return (
    <div className={adminPageClass}>
      <Link to="/admin/orders" className="link text-sm">
        ← All orders
      </Link>
      <AdminPageHeader
        title={
          <>
            Order <span className="whitespace-nowrap">{order.reference}</span>
          </>
        }
      >
        <OrderStatus
          status={order.status}
          needsAttention={order.needsAttention}
          refundPending={refunds.some((r) => r.status === "requested" || r.status === "pending")}
          refund={refundWords(order)}
        />
      </AdminPageHeader>

      {order.needsAttention ? (
        <div role="alert" className="rounded-2xl border-2 border-red-800 bg-white p-4">
          <p className="font-semibold text-red-800">Needs attention</p>
          <p className="mt-1">{order.attentionReason}</p>
        </div>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2">
        <section className={adminSectionClass} aria-labelledby="customer-heading">
          <h2 id="customer-heading" className="text-xl font-semibold">
            Customer
          </h2>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
            <dt className="text-ink-soft">Name</dt>
            <dd className="break-words">{order.customer.name}</dd>
            <dt className="text-ink-soft">Email</dt>
            <dd className="break-all">
              <a className="link" href={mailtoHref(order.customer.email)}>
                {order.customer.email}
              </a>
            </dd>
            <dt className="text-ink-soft">Phone</dt>
            <dd className="break-words">
              <a className="link" href={telHref(order.customer.phone)}>
                {order.customer.phone}
              </a>
            </dd>
            <dt className="text-ink-soft">Address</dt>
            <dd className="whitespace-pre-wrap break-words">{order.customer.address}</dd>
          </dl>
        </section>

        <OrderPaymentPanel order={order} lines={lines} />
      </div>

      <OrderActions view={loaderData} errorFor={errorFor} busy={busy} />

      <section className={adminSectionClass} aria-labelledby="note-heading">
        <h2 id="note-heading" className="text-xl font-semibold">
          Note
        </h2>
        <Form method="post" className="space-y-3">
          <input type="hidden" name="intent" value="note" />
          <TextAreaField
            label="Your note (only you see it)"
            name="note"
            defaultValue={order.note}
            rows={3}
            maxLength={2000}
            error={errorFor("note")}
            key={order.note}
          />
          <button type="submit" className="btn-outline" disabled={busy}>
            Save note
          </button>
        </Form>
      </section>

      <OrderRecord refunds={refunds} history={history} emails={emails} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  seo({
    title: loaderData ? `Order ${loaderData.order.reference}` : "Order",
    description: "An order.",
    path: "/admin/orders",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });

export function ErrorBoundary() {
  return (
    <div className={adminPageClass}>
      <h1 className="text-2xl font-semibold">Order not found</h1>
      <Link to="/admin/orders" className="btn-primary">
        All orders
      </Link>
    </div>
  );
}
