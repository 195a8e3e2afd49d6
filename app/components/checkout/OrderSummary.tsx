import { formatRand } from "~/lib/money";
import { sellsSeats } from "~/orders/checkout-seats";

export interface SummaryItem {
  name: string;
  description: string | null;
  amountCents: number;
  orderType: string | null;
}

/** A member's perk on the item (issue 40): why, and what one costs after it. */
export interface SummaryPerk {
  reason: string;
  listCents: number;
  totalCents: number;
}

/** The summary card: what is bought and the price the server will charge. */
export function OrderSummary({ item, perk }: { item: SummaryItem; perk?: SummaryPerk | null }) {
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
          <dd className="font-display text-2xl" data-testid={perk ? "checkout-list-price" : "checkout-total"}>
            {formatRand(item.amountCents)}
            {item.orderType === "membership" ? <span className="text-base font-normal"> / month</span> : null}
          </dd>
        </div>
        {perk ? (
          <>
            <div className="flex items-baseline justify-between gap-4" data-testid="checkout-perk">
              <dt className="min-w-0 text-ink/85">{perk.reason}</dt>
              <dd className="shrink-0">−{formatRand(perk.listCents - perk.totalCents)}</dd>
            </div>
            <div className="flex items-baseline justify-between gap-4 border-t border-ink/10 pt-3">
              <dt className="font-semibold">{sellsSeats(item.orderType) ? "Your price for 1 seat" : "Your price"}</dt>
              <dd className="font-display text-2xl" data-testid="checkout-total">
                {formatRand(perk.totalCents)}
              </dd>
            </div>
          </>
        ) : null}
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
