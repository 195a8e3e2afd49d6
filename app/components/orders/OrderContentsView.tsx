import { Form } from "react-router";
import type { OrderContents } from "~/orders/order-contents.server";
import { TicketCard } from "./TicketCard";

/**
 * What a paid order holds: the item and amount, each ticket with its QR code, or the membership with
 * the way into /account when this browser may sign its member in.
 */
export function OrderContentsView({
  contents,
  canEnterAccount,
  accountProblem,
}: {
  contents: OrderContents;
  canEnterAccount: boolean;
  accountProblem?: string;
}) {
  const { tickets, membership } = contents;
  return (
    <>
      <section className="card mx-auto mt-8 max-w-2xl p-6 sm:p-8" aria-labelledby="bought-heading">
        <h2 id="bought-heading" className="font-display text-2xl">
          What you bought
        </h2>
        <dl className="mt-4 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2">
          {contents.lines.length ? (
            <>
              <dt className="font-semibold">Items</dt>
              <dd>
                <ul data-testid="order-lines">
                  {contents.lines.map((line) => (
                    <li key={line.name} className="break-words">
                      {line.quantity} × {line.name}, {line.unitPrice} each
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          ) : (
            <>
              <dt className="font-semibold">Item</dt>
              <dd className="break-words">{contents.itemName}</dd>
            </>
          )}
          {tickets.length > 1 ? (
            <>
              <dt className="font-semibold">Seats</dt>
              <dd>{tickets.length}</dd>
            </>
          ) : null}
          <dt className="font-semibold">Amount</dt>
          <dd>{contents.amount}</dd>
          {contents.fulfilment ? (
            <>
              <dt className="font-semibold">Status</dt>
              <dd data-testid="order-fulfilment">{contents.fulfilment}</dd>
            </>
          ) : null}
          {membership ? (
            <>
              <dt className="font-semibold">Membership</dt>
              <dd className="break-words">{membership.tierName}</dd>
              <dt className="font-semibold">Status</dt>
              <dd>{membership.status}</dd>
              <dt className="font-semibold">Paid until</dt>
              <dd>{membership.paidUntil}</dd>
            </>
          ) : null}
        </dl>
        {membership ? (
          <div className="mt-6">
            {canEnterAccount ? (
              <Form method="post">
                <input type="hidden" name="intent" value="enter-account" />
                <button type="submit" className="btn-primary min-h-11">
                  Go to your account
                </button>
              </Form>
            ) : (
              <a href="/account" className="btn-primary min-h-11">
                Go to your account
              </a>
            )}
            {accountProblem ? (
              <p role="alert" className="mt-3 font-semibold text-accent">
                {accountProblem}
              </p>
            ) : null}
          </div>
        ) : null}
      </section>
      {tickets.length ? (
        <section className="mx-auto mt-8 max-w-2xl" aria-labelledby="tickets-heading">
          <h2 id="tickets-heading" className="font-display text-2xl">
            {tickets.length === 1 ? "Your ticket" : "Your tickets"}
          </h2>
          <p className="mt-2 text-ink/85">Show the QR code at the door, on your phone or printed.</p>
          <ul className="mt-4 space-y-6">
            {tickets.map((ticket) => (
              <TicketCard key={ticket.code} ticket={ticket} seats={tickets.length} />
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
