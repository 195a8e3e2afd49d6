import { eq } from "drizzle-orm";
import { data } from "react-router";
import { csvRow } from "~/admin/csv";
import { events } from "~/db/schema";
import { listAttendees } from "~/tickets/door-lists.server";
import type { Route } from "./+types/admin-attendees-csv";

/** GET /admin/events/{id}/attendees.csv: every ticket of the event, for a spreadsheet; 401 when not signed in. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const [event] = await context.db
    .select({ id: events.id })
    .from(events)
    .where(eq(events.id, params.id.slice(0, 100)));
  if (!event) throw data({ error: "Event not found" }, { status: 404 });
  const rows = await listAttendees(context.db, event.id, "", null);
  const body =
    csvRow([
      "Name",
      "Email",
      "Phone",
      "Ticket type",
      "Seat",
      "Session",
      "Code",
      "Order reference",
      "Checked in at",
      "Cancelled",
    ]) +
    rows
      .map((r) =>
        csvRow([
          r.name,
          r.email,
          r.phone,
          r.ticketType,
          r.seatNumber,
          r.sessionStartsAt ?? "",
          r.code,
          r.reference,
          r.checkedInAt ?? "",
          r.voided ? "yes" : "",
        ]),
      )
      .join("");
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="attendees-${event.id.replace(/[^a-z0-9-]/gi, "")}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
