import { dayMonthYear } from "~/lib/dates-in-words";
import type { AccountOrder } from "~/orders/account-orders.server";

/** Her shop orders on /account, each with whether it is on its way ("1 of 3 items sent", issue 39). */
export function AccountOrders({ orders }: { orders: AccountOrder[] }) {
  if (!orders.length) return null;
  return (
    <section aria-labelledby="shop-orders-heading" className="mt-8">
      <h2 id="shop-orders-heading" className="text-xl font-semibold">
        Your orders
      </h2>
      <ul className="mt-3 divide-y divide-ink/10">
        {orders.map((o) => (
          <li key={o.reference} className="py-3" data-testid="account-order">
            <span className="block font-semibold [overflow-wrap:anywhere]">{o.itemName}</span>
            <span className="block text-sm text-ink/85">
              {o.reference}, {dayMonthYear(o.placedOn)}: {o.fulfilment}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
