import { data, Link } from "react-router";
import { hitRateLimit } from "~/contact/rate-limit.server";
import { requestClientKey } from "~/lib/client-address.server";
import { seo, siteUrlFrom } from "~/lib/seo";
import { TICKET_PAGE_RATE_LIMIT, ticketPage } from "~/tickets/ticket-page.server";
import type { Route } from "./+types/ticket";

/** A ticket is personal: never stored by a shared cache or the browser's back-forward copy. */
const PRIVATE = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };

export async function loader({ params, context }: Route.LoaderArgs) {
  if (!(await hitRateLimit(context.db, TICKET_PAGE_RATE_LIMIT, requestClientKey(context), context.clock.now()))) {
    return data({ status: "limited" as const }, { status: 429, headers: { ...PRIVATE, "Retry-After": "600" } });
  }
  const ticket = await ticketPage(context.db, params.code, context.config.siteUrl);
  if (!ticket) return data({ status: "missing" as const }, { status: 404, headers: PRIVATE });
  return data({ status: "ok" as const, ticket }, { headers: PRIVATE });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function TicketPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.status === "limited") {
    return (
      <section className="container-page py-16 text-center">
        <h1 className="font-display text-3xl">Too many ticket look-ups</h1>
        <p className="mt-4 text-ink-soft">Please wait ten minutes and open your ticket again. Your ticket is safe.</p>
      </section>
    );
  }
  if (loaderData.status === "missing") {
    return (
      <section className="container-page py-16 text-center">
        <h1 className="font-display text-3xl">Ticket not found</h1>
        <p className="mt-4 text-ink-soft">
          Check the link in your confirmation email, or contact us with your order reference.
        </p>
        <Link to="/contact" className="btn-primary mt-8 min-h-11">
          Contact us
        </Link>
      </section>
    );
  }
  const { ticket } = loaderData;
  return (
    <article className="container-page max-w-md py-8">
      <div className="card overflow-hidden">
        <div className="bg-honey px-5 py-4">
          <p className="text-sm font-semibold">{ticket.ticketType}</p>
          <h1 className="font-display text-2xl leading-tight">{ticket.eventTitle}</h1>
        </div>
        <div className="space-y-4 p-5">
          {ticket.voided ? (
            <p className="rounded-xl bg-ink p-3 font-semibold text-cream">
              This ticket was cancelled and no longer admits.
            </p>
          ) : null}
          <div
            role="img"
            aria-label={`QR code for ticket ${ticket.code}`}
            className="mx-auto w-full max-w-64 [&_svg]:h-auto [&_svg]:w-full"
            dangerouslySetInnerHTML={{ __html: ticket.qrSvg }}
          />
          <p className="text-center">
            <span className="block text-sm font-semibold">Door code</span>
            <span className="font-mono text-3xl font-bold tracking-widest whitespace-nowrap">{ticket.shortCode}</span>
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
            <dt className="font-semibold">Name</dt>
            <dd>{ticket.holderName}</dd>
            <dt className="font-semibold">Seat</dt>
            <dd>{ticket.seatNumber}</dd>
            <dt className="font-semibold">When</dt>
            <dd>{ticket.when}</dd>
            <dt className="font-semibold">Where</dt>
            <dd>{ticket.location}</dd>
            <dt className="font-semibold">Code</dt>
            <dd className="break-all font-mono">{ticket.code}</dd>
          </dl>
          {ticket.checkedIn ? <p className="font-semibold text-leaf">Checked in. Enjoy!</p> : null}
        </div>
      </div>
    </article>
  );
}

export const meta: Route.MetaFunction = ({ data: loaded, matches }) =>
  seo({
    title: loaded?.status === "ok" ? `Ticket: ${loaded.ticket.eventTitle}` : "Ticket",
    description: "Your ticket for the door.",
    path: "/ticket",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
