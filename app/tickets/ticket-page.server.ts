import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { tickets } from "~/db/schema";
import { describeSession } from "~/events/sessions.server";
import { TICKET_CODE_PATTERN, ticketUrl } from "./codes";
import { qrSvg } from "./qr.server";
import { selectTicketsWithEvent } from "./ticket-rows.server";
import { formatShortCode } from "./short-code";

/** Looking codes up is rate-limited per address, so guessing one is hopeless as well as slow. */
export const TICKET_PAGE_RATE_LIMIT = { bucket: "ticket-page", limit: 30, windowMs: 10 * 60_000 };

/** What the buyer's phone shows at the door, or null for a code that is not a ticket. */
export async function ticketPage(db: Database, code: string, siteUrl: string) {
  if (!TICKET_CODE_PATTERN.test(code)) return null;
  const [row] = await selectTicketsWithEvent(db).where(eq(tickets.code, code)).limit(1);
  if (!row) return null;
  const { ticket, event } = row;
  return {
    code: ticket.code,
    shortCode: formatShortCode(ticket.shortCode),
    eventTitle: event.title,
    ticketType: row.type ?? "Ticket",
    holderName: ticket.holderName,
    seatNumber: ticket.seatNumber,
    when: ticket.sessionStartsAt ? describeSession(ticket.sessionStartsAt, ticket.sessionEndsAt) : event.dates,
    location: event.location,
    voided: ticket.voided,
    checkedIn: ticket.checkedInAt !== null,
    qrSvg: await qrSvg(ticketUrl(siteUrl, ticket.code)),
  };
}
