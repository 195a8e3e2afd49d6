import { formatDateTime } from "~/admin/format-date";
import { LineAttendees } from "~/components/admin/LineAttendees";
import { Money } from "~/components/admin/Money";
import type { AdminOrderView } from "~/orders/admin-order-view.server";
import { fulfilmentWords, refundWords } from "~/orders/fulfilment-words";
import { paidByWords, providerName } from "~/orders/payment-words";
import { adminSectionClass as section } from "~/components/admin/AdminShell";

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

/** What was bought and how it was paid, in plain words; the provider's ids behind Details. */
export function OrderPaymentPanel({ order, lines }: Pick<AdminOrderView, "order" | "lines">) {
  return (
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
  );
}
