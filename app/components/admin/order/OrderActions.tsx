import { Form } from "react-router";
import { CheckboxField, SelectField } from "~/components/admin/fields";
import { LineFulfilment } from "~/components/admin/LineFulfilment";
import { LineRefunds } from "~/components/admin/LineRefunds";
import { RandField } from "~/components/admin/RandField";
import { formatRand } from "~/lib/money";
import type { AdminOrderView } from "~/orders/admin-order-view.server";
import { FULFILMENT_METHODS } from "~/orders/fulfilment-methods";
import { fulfilmentWaits, refundWords } from "~/orders/fulfilment-words";
import { REFUND_AMOUNT_RULES } from "~/orders/refund-schema";
import { adminSectionClass as section } from "~/components/admin/AdminShell";

const PRODUCT_METHODS = FULFILMENT_METHODS.filter((m) => m.value !== "service done").map((m) =>
  m.value === "collected" ? { ...m, label: "Handed over" } : m,
);

/**
 * What the owner can do with a paid order: mark it (or each line) sent or done, refund it (or part of
 * a line), send the confirmation again. Each behind its own Details, opened when its form has an error.
 */
export function OrderActions({
  view: { order, lines, key, lineRefunds, fulfilmentLines },
  errorFor,
  busy,
}: {
  view: AdminOrderView & { key: string };
  errorFor: (intent: string) => string | undefined;
  busy: boolean;
}) {
  const paid = order.status === "paid" || order.status === "partially_refunded";
  return (
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
  );
}
