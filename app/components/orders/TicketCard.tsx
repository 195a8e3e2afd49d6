import type { TicketView } from "~/tickets/ticket-views.server";

/**
 * One ticket on the buyer's confirmation and order pages: the QR code the door scans (drawn on the
 * server), the door code that can be typed in instead, the seat, when and where, and a calendar file.
 */
export function TicketCard({ ticket, seats }: { ticket: TicketView; seats: number }) {
  const seat = seats > 1 ? `${ticket.seatNumber} of ${seats}` : String(ticket.seatNumber);
  return (
    <li className="card overflow-hidden text-left" data-testid="ticket-card">
      <div className="bg-honey px-5 py-4">
        <p className="text-sm font-semibold">{ticket.ticketType}</p>
        <h3 className="font-display text-xl leading-tight break-words">{ticket.eventTitle}</h3>
      </div>
      <div className="space-y-4 p-5">
        {ticket.voided ? (
          <p className="rounded-xl bg-ink p-3 font-semibold text-cream">
            This ticket was cancelled and no longer admits.
          </p>
        ) : null}
        <div
          role="img"
          aria-label={`QR code for seat ${seat}, ${ticket.eventTitle}`}
          className="mx-auto w-full max-w-56 bg-white [&_svg]:h-auto [&_svg]:w-full"
          data-ticket-qr={ticket.code}
          dangerouslySetInnerHTML={{ __html: ticket.qrSvg }}
        />
        <p className="text-center">
          <span className="block text-sm font-semibold">Door code</span>
          <span className="font-mono text-2xl font-bold tracking-widest whitespace-nowrap" data-testid="door-code">
            {ticket.doorCode}
          </span>
        </p>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2">
          <dt className="font-semibold">Name</dt>
          <dd className="break-words">{ticket.holderName}</dd>
          <dt className="font-semibold">Seat</dt>
          <dd>{seat}</dd>
          <dt className="font-semibold">When</dt>
          <dd>{ticket.when}</dd>
          <dt className="font-semibold">Where</dt>
          <dd className="break-words">{ticket.location}</dd>
        </dl>
        <div className="flex flex-wrap gap-3">
          {ticket.calendarPath ? (
            <a href={ticket.calendarPath} className="btn-outline min-h-11" download="event.ics">
              Add to calendar<span className="sr-only">: seat {seat}</span>
            </a>
          ) : null}
          <a href={ticket.pagePath} className="btn-outline min-h-11">
            Open ticket<span className="sr-only">: seat {seat}</span>
          </a>
        </div>
      </div>
    </li>
  );
}
