import { formatRand } from "~/lib/money";
import { sellsSeats } from "~/orders/checkout-seats";

export interface SummaryItem {
  name: string;
  description: string | null;
  amountCents: number;
  orderType: string | null;
}

/** The summary card: what is bought and the price the server will charge. */
export function OrderSummary({ item }: { item: SummaryItem }) {
  return (
    <section className="card p-6" aria-labelledby="summary-heading">
      <h2 id="summary-heading" className="font-display text-2xl">
        Order Summary
      </h2>
      <dl className="mt-4 space-y-3">
        <div>
          <dt className="sr-only">Item</dt>
          <dd className="text-lg font-semibold">{item.name}</dd>
          {item.description ? <dd className="mt-1 text-sm text-ink/80">{item.description}</dd> : null}
        </div>
        <div className="flex items-baseline justify-between border-t border-ink/10 pt-3">
          {/* Seats are chosen in the form, whose options show each total. */}
          <dt className="font-semibold">{sellsSeats(item.orderType) ? "Price per seat" : "Total"}</dt>
          <dd className="font-display text-2xl" data-testid="checkout-total">
            {formatRand(item.amountCents)}
            {item.orderType === "membership" ? <span className="text-base font-normal"> / month</span> : null}
          </dd>
        </div>
      </dl>
      {item.orderType === "product" ? (
        <p className="mt-4 text-sm font-semibold text-accent">Free shipping included</p>
      ) : null}
      {item.orderType === "membership" ? (
        <p className="mt-4 text-sm text-ink/80">
          This is a recurring monthly subscription. You can cancel at any time.
        </p>
      ) : null}
    </section>
  );
}
