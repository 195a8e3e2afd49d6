import { and, asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { tickets } from "~/db/schema";
import { describeSession } from "~/events/sessions.server";
import { ticketUrl } from "./codes";
import { qrSvg } from "./qr.server";
import { selectTicketsWithEvent } from "./ticket-rows.server";
import { formatShortCode } from "./short-code";

/** One ticket as the buyer's confirmation and order pages draw it (components/orders/TicketCard.tsx). */
export interface TicketView {
  code: string;
  /** The door's eight-character code, printed "ABCD-EFGH" for reading aloud. */
  doorCode: string;
  /** The ticket's own page, which its QR code opens. */
  pagePath: string;
  /** The .ics download; null while the event has no date. */
  calendarPath: string | null;
  /** The QR code as inline SVG, drawn on the server: the page ships no QR library. */
  qrSvg: string;
  eventTitle: string;
  ticketType: string;
  seatNumber: number;
  holderName: string;
  when: string;
  location: string;
  voided: boolean;
}

/** An order's tickets, seat by seat, each with its QR code for the door. */
export async function orderTicketViews(
  db: Pick<Database, "select">,
  orderId: string,
  siteUrl: string,
): Promise<TicketView[]> {
  const rows = await selectTicketsWithEvent(db).where(eq(tickets.orderId, orderId)).orderBy(asc(tickets.seatNumber));
  return Promise.all(
    rows.map(async ({ ticket, event, type }) => ({
      code: ticket.code,
      doorCode: formatShortCode(ticket.shortCode),
      pagePath: `/ticket/${ticket.code}`,
      calendarPath: ticket.sessionStartsAt ? `/ticket/${ticket.code}/calendar` : null,
      qrSvg: await qrSvg(ticketUrl(siteUrl, ticket.code)),
      eventTitle: event.title,
      ticketType: type ?? "Ticket",
      seatNumber: ticket.seatNumber,
      holderName: ticket.holderName,
      when: ticket.sessionStartsAt ? describeSession(ticket.sessionStartsAt, ticket.sessionEndsAt) : event.dates,
      location: event.location,
      voided: ticket.voided,
    })),
  );
}

/**
 * The calendar entry of a ticket's session. Its UID is the order's first ticket of that session, as
 * in the confirmation email's file, so adding it from several seats or from the email makes one entry.
 */
export async function ticketCalendarEvent(db: Pick<Database, "select">, code: string, siteUrl: string) {
  const [row] = await selectTicketsWithEvent(db).where(eq(tickets.code, code)).limit(1);
  if (!row?.ticket.sessionStartsAt || row.ticket.voided) return undefined;
  const { ticket, event } = row;
  const [first] = await db
    .select({ code: tickets.code })
    .from(tickets)
    .where(and(eq(tickets.orderId, ticket.orderId), eq(tickets.sessionStartsAt, ticket.sessionStartsAt!)))
    .orderBy(asc(tickets.seatNumber))
    .limit(1);
  const url = ticketUrl(siteUrl, ticket.code);
  return {
    uid: `${first?.code ?? ticket.code}@honeybee-tickets`,
    start: ticket.sessionStartsAt!,
    end: ticket.sessionEndsAt ?? new Date(ticket.sessionStartsAt!.getTime() + 3 * 3_600_000),
    summary: event.title,
    location: event.location,
    description: `${row.type ?? "Ticket"}. Show your ticket at the door: ${url}`,
    url,
  };
}
