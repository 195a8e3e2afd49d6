import { hitRateLimit } from "~/contact/rate-limit.server";
import { requestClientKey } from "~/lib/client-address.server";
import { calendarFile } from "~/tickets/calendar";
import { TICKET_CODE_PATTERN } from "~/tickets/codes";
import { TICKET_PAGE_RATE_LIMIT } from "~/tickets/ticket-page.server";
import { ticketCalendarEvent } from "~/tickets/ticket-views.server";
import type { Route } from "./+types/ticket-calendar";

const PRIVATE = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };

/** "Add to calendar": the ticket's session as an .ics file. The code is the key, as for the ticket page. */
export async function loader({ params, context }: Route.LoaderArgs) {
  if (!(await hitRateLimit(context.db, TICKET_PAGE_RATE_LIMIT, requestClientKey(context), context.clock.now()))) {
    return new Response("Too many ticket look-ups: please wait ten minutes.", {
      status: 429,
      headers: { ...PRIVATE, "Retry-After": "600" },
    });
  }
  const event = TICKET_CODE_PATTERN.test(params.code)
    ? await ticketCalendarEvent(context.db, params.code, context.config.siteUrl)
    : undefined;
  if (!event)
    return new Response("No calendar entry for this ticket.", {
      status: 404,
      headers: { ...PRIVATE, "Content-Type": "text/plain; charset=utf-8" },
    });
  return new Response(calendarFile({ ...event, now: context.clock.now() }), {
    headers: {
      ...PRIVATE,
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'attachment; filename="event.ics"',
    },
  });
}
