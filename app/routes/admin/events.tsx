import { Link } from "react-router";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { listEventsForAdmin } from "~/events/event-admin.server";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/events";

export async function loader({ context }: Route.LoaderArgs) {
  return listEventsForAdmin(context.db, context.clock.now());
}

type AdminEvent = Route.ComponentProps["loaderData"]["upcoming"][number];

function EventCard({ event }: { event: AdminEvent }) {
  return (
    <li className="card p-4 sm:p-5">
      <h3 className="text-lg font-semibold">
        <Link to={`/admin/events/${event.id}`} className="link">
          {event.title}
        </Link>
        {event.demo ? (
          <span className="ml-2 rounded-full bg-honey px-2 py-0.5 align-middle text-xs font-bold text-ink">Demo</span>
        ) : null}
      </h3>
      <p className="text-sm text-ink-soft">
        {event.dates}
        {event.timeText ? `, ${event.timeText}` : ""}
      </p>
      {event.options.length ? (
        <ul className="mt-3 space-y-2" aria-label={`Ticket options of ${event.title}`}>
          {event.options.map((o) => (
            <li key={o.id} className="rounded-xl bg-cream-deep/60 px-3 py-2 text-sm">
              <p className="font-semibold">
                {o.type}: {o.price}
              </p>
              <p>
                {o.sold} sold · {o.held} held ·{" "}
                {o.left === null ? "no limit" : o.left === 0 ? "0 left (sold out)" : `${o.left} left`}
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-sm text-ink-soft">No ticket options yet.</p>
      )}
    </li>
  );
}

export default function AdminEvents({ loaderData }: Route.ComponentProps) {
  const { upcoming, past } = loaderData;
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Events">
        <Link to="/admin/events/new" className="btn-primary min-h-11 px-4 py-1.5">
          New event
        </Link>
      </AdminPageHeader>
      <section aria-labelledby="upcoming-heading" className="space-y-3">
        <h2 id="upcoming-heading" className="text-xl font-semibold">
          Upcoming
        </h2>
        {upcoming.length ? (
          <ul className="grid gap-4 lg:grid-cols-2">
            {upcoming.map((e) => (
              <EventCard key={e.id} event={e} />
            ))}
          </ul>
        ) : (
          <p className="text-ink-soft">No upcoming events. Add one with New event.</p>
        )}
      </section>
      <section aria-labelledby="past-heading" className="space-y-3">
        <h2 id="past-heading" className="text-xl font-semibold">
          Past events
        </h2>
        {past.length ? (
          <ul className="grid gap-4 lg:grid-cols-2">
            {past.map((e) => (
              <EventCard key={e.id} event={e} />
            ))}
          </ul>
        ) : (
          <p className="text-ink-soft">No past events.</p>
        )}
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Events",
    description: "The shop's events and their tickets.",
    path: "/admin/events",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
