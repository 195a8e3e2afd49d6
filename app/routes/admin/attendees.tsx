import { eq } from "drizzle-orm";
import { data, Link } from "react-router";
import { formatDateTime } from "~/admin/format-date";
import { textParam } from "~/admin/list-query";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { DataList } from "~/components/admin/DataList";
import { AdminFilterForm, FilterSearch, FilterSubmit } from "~/components/admin/FilterForm";
import { events } from "~/db/schema";
import { seo, siteUrlFrom } from "~/lib/seo";
import { listAttendees } from "~/tickets/door-lists.server";
import type { Route } from "./+types/attendees";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const [event] = await context.db
    .select({ id: events.id, title: events.title })
    .from(events)
    .where(eq(events.id, params.id.slice(0, 100)));
  if (!event) throw data("Event not found", { status: 404 });
  const q = textParam(new URL(request.url).searchParams, "q");
  const attendees = await listAttendees(context.db, event.id, q, null);
  return { event, q, attendees };
}

type Attendee = Awaited<ReturnType<typeof loader>>["attendees"][number];

const checkedIn = (a: Attendee) => (a.voided ? "Cancelled" : a.checkedInAt ? formatDateTime(a.checkedInAt) : "Not yet");

export default function Attendees({ loaderData }: Route.ComponentProps) {
  const { event, q, attendees } = loaderData;
  const inside = attendees.filter((a) => a.checkedInAt).length;
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title={`Attendees: ${event.title}`}>
        <a
          href={`/admin/events/${encodeURIComponent(event.id)}/attendees.csv`}
          className="btn-outline min-h-11 px-4 py-1.5 text-sm print:hidden"
          download
        >
          Export CSV<span className="sr-only"> of attendees</span>
        </a>
        <Link
          to={`/admin/events/${encodeURIComponent(event.id)}/sessions`}
          className="btn-outline min-h-11 px-4 py-1.5 text-sm print:hidden"
        >
          Session dates
        </Link>
      </AdminPageHeader>
      <AdminFilterForm label="Attendees" className="print:hidden">
        <FilterSearch id="attendee-search" defaultValue={q} placeholder="Name, email, phone, code or reference" />
        <FilterSubmit label="Search" />
      </AdminFilterForm>
      <p className="text-sm text-ink-soft" aria-live="polite">
        {attendees.length === 1 ? "1 ticket" : `${attendees.length} tickets`}, {inside} checked in.{" "}
        <span className="print:hidden">Print this page for a paper list at the door.</span>
      </p>
      <DataList
        rows={attendees}
        rowKey={(a) => a.code}
        caption={`Attendees of ${event.title}`}
        empty={q ? "No attendee matches that search." : "No tickets sold yet."}
        columns={[
          { header: "Name", primary: true, cell: (a) => <span className="font-semibold">{a.name}</span> },
          { header: "Email", cell: (a) => <span className="break-all">{a.email}</span> },
          { header: "Phone", cell: (a) => a.phone },
          {
            header: "Ticket type",
            cell: (a) =>
              `${a.ticketType}, seat ${a.seatNumber}${a.sessionStartsAt ? ` (${formatDateTime(a.sessionStartsAt)})` : ""}`,
          },
          { header: "Code", cell: (a) => <span className="break-all font-mono text-xs">{a.code}</span> },
          { header: "Checked in", cell: checkedIn },
        ]}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Attendees",
    description: "Ticket holders of an event.",
    path: "/admin/events",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
