import { data, Form, Link, redirect, useNavigation } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { formatDateTime } from "~/admin/format-date";
import { mailtoHref } from "~/admin/mailto";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { CheckboxField, SelectField, TextAreaField } from "~/components/admin/fields";
import { OrderStatus } from "~/components/admin/OrderStatus";
import { checkboxFields, textFields, validateForm } from "~/lib/form";
import { RandField } from "~/components/admin/RandField";
import { formatRand, parseRandToCents } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import { FULFILMENT_METHODS, type FulfilmentMethod } from "~/orders/fulfilment-methods";
import { fulfilmentWaits, fulfilmentWords, ownerFulfils, refundWords } from "~/orders/fulfilment-words";
import { lineChargedCents } from "~/orders/line-money";
import { historyWords, paidByWords, providerName } from "~/orders/payment-words";
import { Money } from "~/components/admin/Money";
import { LineAttendees } from "~/components/admin/LineAttendees";
import { LineRefunds } from "~/components/admin/LineRefunds";
import { LineFulfilment } from "~/components/admin/LineFulfilment";
import { countLines } from "~/orders/line-fulfilment";
import { ownerLines } from "~/orders/line-fulfilment.server";
import { fulfilLinesFromForm } from "~/orders/line-fulfilment-form.server";
import { lineRefundChoices } from "~/orders/line-refunds.server";
import { refundLineFromForm } from "~/orders/line-refund-form.server";
import { markFulfilled, resendConfirmation, saveOwnerNote } from "~/orders/fulfilment.server";
import { isOrderId } from "~/orders/orders.server";
import { findOrderForAdmin } from "~/orders/orders-admin.server";
import {
  ORDER_ACTION_CHECKBOXES,
  ORDER_ACTION_TEXT_FIELDS,
  orderActionSchema,
  REFUND_AMOUNT_RULES,
} from "~/orders/refund-schema";
import { requestRefund } from "~/orders/refunds.server";
import type { Route } from "./+types/order";
import { telHref } from "~/lib/phone";

function orderIdFrom(params: { id?: string }): string {
  if (!isOrderId(params.id)) throw data({ error: "Order not found" }, { status: 404 });
  return params.id;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const found = await findOrderForAdmin(context.db, orderIdFrom(params));
  if (!found) throw data({ error: "Order not found" }, { status: 404 });
  const { order, lines, refunds, history, emails } = found;
  const toSend = (await ownerLines(context.db, order.id)).filter((l) => l.state !== "none");
  const refundedAt =
    refunds
      .filter((r) => r.status === "succeeded")
      .map((r) => (r.completedAt ?? r.createdAt).toISOString())
      .sort()
      .at(-1) ?? null;
  const waiting = refunds
    .filter((r) => r.status === "requested" || r.status === "pending")
    .reduce((sum, r) => sum + r.amountCents, 0);
  return {
    // One key per page shown: a double click on a form sends it twice, and the second finds the first's work.
    key: crypto.randomUUID(),
    order: {
      id: order.id,
      reference: order.reference,
      createdAt: order.createdAt.toISOString(),
      completedAt: order.completedAt?.toISOString() ?? null,
      status: order.status,
      orderType: order.orderType,
      itemName: order.itemName,
      amountCents: order.amountCents,
      refundedCents: order.refundedCents,
      refundedAt,
      refundableCents: Math.max(0, order.amountCents - order.refundedCents - waiting),
      needsAttention: order.needsAttention,
      attentionReason: order.attentionReason,
      fulfilment: order.fulfilmentStatus,
      fulfilmentMethod: order.fulfilmentMethod,
      fulfilledAt: order.fulfilledAt?.toISOString() ?? null,
      lines: countLines(toSend.map((l) => l.state)),
      customer: {
        name: `${order.customerFirstName} ${order.customerLastName}`,
        email: order.customerEmail,
        phone: order.customerPhone,
        address: order.customerAddress,
      },
      provider: order.provider,
      usedDiscountCode: order.discountCodeId !== null,
      checkoutId: order.yocoCheckoutId,
      paymentId: order.providerPaymentId,
      note: order.ownerNote ?? "",
    },
    lines: lines.map((l) => ({
      id: l.id,
      name: l.displayName,
      quantity: l.quantity,
      unitPriceCents: l.unitPriceCents,
      attendees: l.attendeeNames ?? [],
      discountCents: l.discountCents,
      discountReason: l.discountReason,
      chargedCents: lineChargedCents(l),
    })),
    refunds: refunds.map((r) => ({
      id: r.id,
      amountCents: r.amountCents,
      status: r.status,
      restock: r.restock,
      createdAt: r.createdAt.toISOString(),
      reason: r.failureReason,
    })),
    history: history.map((h) => ({ ...h, summary: historyWords(h.summary, order.provider) })),
    emails: emails.map((e) => ({
      ...e,
      createdAt: e.createdAt.toISOString(),
      sentAt: e.sentAt?.toISOString() ?? null,
    })),
    lineRefunds: await lineRefundChoices(context.db, order.id),
    // Several lines to send are marked each on its own (issue 39); one is marked with one press, as before.
    fulfilmentLines:
      toSend.length > 1 ? toSend.map((l) => ({ ...l, fulfilledAt: l.fulfilledAt?.toISOString() ?? null })) : [],
  };
}

type ActionAnswer = { intent: string; error: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = orderIdFrom(params);
  const form = await request.formData();
  const values = { ...textFields(form, ORDER_ACTION_TEXT_FIELDS), ...checkboxFields(form, ORDER_ACTION_CHECKBOXES) };
  const checked = validateForm(orderActionSchema, values);
  const back = (title: string, description?: string) =>
    redirect(`/admin/orders/${id}`, { headers: { "Set-Cookie": setToastCookie({ title, description }) } });
  const refuse = (error: string, status = 400) => data<ActionAnswer>({ intent: values.intent, error }, { status });
  const found = await findOrderForAdmin(context.db, id);
  if (!found) throw data({ error: "Order not found" }, { status: 404 });
  if (values.intent === "fulfil-lines") {
    const done = await fulfilLinesFromForm(context, id, form);
    return done.ok ? back(done.title, done.description) : refuse(done.error, done.status);
  }
  if (values.intent === "refund-line") {
    const done = await refundLineFromForm(context, id, form);
    return done.ok ? back(done.title, done.description) : refuse(done.error);
  }
  if (!checked.ok) {
    const { intent, key, amount, note } = checked.fieldErrors;
    return refuse(intent ?? key ?? amount ?? note ?? "Enter the amount to refund in rand, e.g. 450 or 450,00.");
  }
  const wanted = checked.data;

  if (wanted.intent === "fulfil") {
    const { method } = wanted;
    if (!ownerFulfils(found.order.orderType))
      return refuse("Tickets are issued and memberships start with the payment: there is nothing to mark.", 409);
    const methods = found.order.orderType === "service" ? ["service done"] : ["posted", "collected"];
    if (!methods.includes(method)) return refuse("Choose whether it was posted or handed over.");
    const outcome = await markFulfilled(context, id, method as FulfilmentMethod);
    if (outcome === "not-paid") return refuse("Only a paid order can be marked fulfilled.", 409);
    const done =
      method === "service done" ? "Marked done" : method === "collected" ? "Marked handed over" : "Marked posted";
    return back(
      outcome === "already" ? "Already marked" : done,
      outcome === "already" ? undefined : "The customer has been emailed.",
    );
  }
  if (wanted.intent === "refund") {
    const cents = parseRandToCents(wanted.amount)!;
    const result = await requestRefund(context, {
      orderId: id,
      amountCents: cents,
      restock: wanted.restock,
      key: wanted.key,
    });
    if (!result.ok) return refuse(result.error, result.field ? 400 : 409);
    if (result.state === "already-requested") return back("Refund already requested");
    return back(
      result.state === "succeeded" ? "Refunded" : "Refund requested",
      result.state === "succeeded"
        ? `${formatRand(cents)} refunded; the customer has been emailed.`
        : "The order shows refund pending until the payment provider confirms it.",
    );
  }
  if (wanted.intent === "resend") {
    const outcome = await resendConfirmation(context, id, wanted.key);
    if (outcome === "not-paid") return refuse("Only a paid order has a confirmation to send.", 409);
    return back("Confirmation sent again");
  }
  await saveOwnerNote(context, id, wanted.note);
  return back("Note saved");
}

const section = "card space-y-3 p-4 sm:p-6";
const PRODUCT_METHODS = FULFILMENT_METHODS.filter((m) => m.value !== "service done").map((m) =>
  m.value === "collected" ? { ...m, label: "Handed over" } : m,
);
const time = new Intl.DateTimeFormat("en-ZA", {
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
  timeZone: "Africa/Johannesburg",
});
const day = new Intl.DateTimeFormat("en-ZA", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "Africa/Johannesburg",
});
const formatTime = (iso: string) => time.format(new Date(iso));
const formatDay = (iso: string) => day.format(new Date(iso));

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { order, lines, refunds, history, emails, key, lineRefunds, fulfilmentLines } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errorFor = (intent: string) => (actionData?.intent === intent ? actionData.error : undefined);
  const paid = order.status === "paid" || order.status === "partially_refunded";
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
        <section className={section} aria-labelledby="customer-heading">
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

        <section className={section} aria-labelledby="payment-heading">
          <h2 id="payment-heading" className="text-xl font-semibold">
            Item and payment
          </h2>
          <ul>
            {lines.map((l) => (
              <li key={l.id}>
                <div className="flex flex-wrap justify-between gap-x-3">
                  <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">
                    {l.quantity} × {l.name}
                  </span>
                  <Money cents={l.unitPriceCents} />
                  {l.discountCents ? (
                    // A member's perk or a code (issue 40): what came off the line, and why.
                    <span className="basis-full text-sm text-ink-soft" data-testid="line-discount">
                      − <Money cents={l.discountCents} /> {l.discountReason} = <Money cents={l.chargedCents} />
                    </span>
                  ) : null}
                </div>
                <LineAttendees names={l.attendees} />
              </li>
            ))}
          </ul>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
            <dt className="text-ink-soft">Charged</dt>
            <dd className="font-semibold">
              <Money cents={order.amountCents} />
            </dd>
            {order.refundedCents ? (
              <>
                <dt className="text-ink-soft">Refunded</dt>
                <dd>{refundWords(order) ?? <Money cents={order.refundedCents} />}</dd>
              </>
            ) : null}
            <dt className="text-ink-soft">Placed</dt>
            <dd>{formatDateTime(order.createdAt)}</dd>
            <dt className="text-ink-soft">Payment</dt>
            <dd>
              {order.completedAt ? (
                <>
                  {paidByWords(order.provider, order.usedDiscountCode)}
                  <span className="block text-ink-soft">
                    Payment confirmed by {providerName(order.provider)} at {formatTime(order.completedAt)} on{" "}
                    {formatDay(order.completedAt)}
                  </span>
                </>
              ) : (
                "Not paid"
              )}
            </dd>
            <dt className="text-ink-soft">{order.fulfilment === "fulfilled" ? "Sent" : "To do"}</dt>
            <dd>
              {fulfilmentWords(order) || "Nothing until it is paid"}
              {order.fulfilment === "fulfilled" && order.fulfilledAt ? (
                <span className="block text-ink-soft">{formatDateTime(order.fulfilledAt)}</span>
              ) : null}
            </dd>
          </dl>
          <details className="text-sm">
            <summary className="min-h-11 cursor-pointer py-2 font-semibold">
              Details<span className="sr-only"> from the payment provider</span>
            </summary>
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
              <dt className="text-ink-soft">Provider</dt>
              <dd>{order.provider}</dd>
              <dt className="text-ink-soft">Checkout id</dt>
              <dd className="break-all font-mono">{order.checkoutId ?? "none"}</dd>
              <dt className="text-ink-soft">Payment id</dt>
              <dd className="break-all font-mono">{order.paymentId ?? "none"}</dd>
            </dl>
          </details>
        </section>
      </div>

      <section className={section} aria-labelledby="actions-heading">
        <h2 id="actions-heading" className="text-xl font-semibold">
          Actions
        </h2>
        {paid && fulfilmentLines.length ? (
          <LineFulfilment lines={fulfilmentLines} error={errorFor("fulfil-lines")} busy={busy} />
        ) : null}
        {!fulfilmentLines.length && fulfilmentWaits(order) && order.orderType === "product" ? (
          <details className="rounded-xl border border-ink/15 p-3" open={Boolean(errorFor("fulfil"))}>
            <summary className="min-h-11 cursor-pointer py-2 font-semibold">Mark posted or handed over</summary>
            <Form method="post" className="mt-2 space-y-3">
              <input type="hidden" name="intent" value="fulfil" />
              <SelectField
                label="How"
                name="method"
                options={PRODUCT_METHODS}
                defaultValue="posted"
                error={errorFor("fulfil")}
              />
              <button type="submit" className="btn-primary" disabled={busy}>
                Yes, mark it and email the customer
              </button>
            </Form>
          </details>
        ) : null}
        {!fulfilmentLines.length && fulfilmentWaits(order) && order.orderType === "service" ? (
          <details className="rounded-xl border border-ink/15 p-3" open={Boolean(errorFor("fulfil"))}>
            <summary className="min-h-11 cursor-pointer py-2 font-semibold">Mark done</summary>
            <Form method="post" className="mt-2 space-y-3">
              <input type="hidden" name="intent" value="fulfil" />
              <input type="hidden" name="method" value="service done" />
              {errorFor("fulfil") ? <p className="font-semibold text-red-800">{errorFor("fulfil")}</p> : null}
              <button type="submit" className="btn-primary" disabled={busy}>
                Yes, mark it done and email the customer
              </button>
            </Form>
          </details>
        ) : null}
        {paid && order.refundableCents > 0 ? (
          <LineRefunds lines={lineRefunds} pageKey={key} error={errorFor("refund-line")} busy={busy} />
        ) : null}
        {paid && order.refundableCents > 0 && lines.length < 2 ? (
          <details
            className="rounded-xl border border-ink/15 p-3"
            open={Boolean(errorFor("refund")) || order.needsAttention}
          >
            <summary className="min-h-11 cursor-pointer py-2 font-semibold">Refund</summary>
            <Form method="post" className="mt-2 space-y-3">
              <input type="hidden" name="intent" value="refund" />
              <input type="hidden" name="key" value={key} />
              <RandField
                label="Amount (R)"
                name="amount"
                defaultValue={(order.refundableCents / 100).toFixed(2)}
                error={errorFor("refund")}
                hint={`Up to ${formatRand(order.refundableCents)}.`}
                rules={REFUND_AMOUNT_RULES}
                verb="Refunds"
              />
              <CheckboxField
                label={
                  order.orderType === "ticket" || order.orderType === "workshop"
                    ? "Return the seat to sale"
                    : "Return the item to stock"
                }
                name="restock"
                defaultChecked={!order.needsAttention}
              />
              <button
                type="submit"
                className="min-h-11 rounded-full bg-red-800 px-5 font-semibold text-white"
                disabled={busy}
              >
                Yes, refund through the payment provider
              </button>
            </Form>
          </details>
        ) : null}
        {paid ? (
          <details className="rounded-xl border border-ink/15 p-3" open={Boolean(errorFor("resend"))}>
            <summary className="min-h-11 cursor-pointer py-2 font-semibold">Resend the confirmation email</summary>
            <Form method="post" className="mt-2 space-y-3">
              <input type="hidden" name="intent" value="resend" />
              <input type="hidden" name="key" value={key} />
              {errorFor("resend") ? <p className="font-semibold text-red-800">{errorFor("resend")}</p> : null}
              <button type="submit" className="btn-outline max-w-full" disabled={busy}>
                <span className="min-w-0 [overflow-wrap:anywhere]">Yes, send it to {order.customer.email}</span>
              </button>
            </Form>
          </details>
        ) : (
          <p className="text-ink-soft">
            {refundWords(order)
              ? `${refundWords(order)}: there is nothing more to do.`
              : "This order is not paid: there is nothing to send or refund."}
          </p>
        )}
      </section>

      <section className={section} aria-labelledby="note-heading">
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

      {refunds.length ? (
        <section className={section} aria-labelledby="refunds-heading">
          <h2 id="refunds-heading" className="text-xl font-semibold">
            Refunds
          </h2>
          <ul className="space-y-1">
            {refunds.map((r) => (
              <li key={r.id}>
                <Money cents={r.amountCents} />:{" "}
                {r.status === "succeeded"
                  ? "refunded"
                  : r.status === "failed"
                    ? `failed${r.reason ? ` (${r.reason})` : ""}`
                    : "refund pending"}
                , {formatDateTime(r.createdAt)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className={section} aria-labelledby="history-heading">
        <h2 id="history-heading" className="text-xl font-semibold">
          History
        </h2>
        <ol className="space-y-2">
          {history.map((h) => (
            <li key={h.id} className="flex flex-wrap justify-between gap-x-3">
              <span className="min-w-0 [overflow-wrap:anywhere]">{h.summary}</span>
              <time className="text-sm text-ink-soft" dateTime={h.at}>
                {formatDateTime(h.at)}
              </time>
            </li>
          ))}
        </ol>
        {emails.length ? (
          <>
            <h3 className="pt-2 font-semibold">Emails</h3>
            <ul className="space-y-1 text-sm">
              {emails.map((e) => (
                <li key={e.id} className="[overflow-wrap:anywhere]">
                  {e.subject} to {e.to}:{" "}
                  {e.status === "sent" && e.sentAt
                    ? `sent ${formatDateTime(e.sentAt)}`
                    : e.status === "failed"
                      ? "could not be sent"
                      : "waiting to be sent"}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
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
