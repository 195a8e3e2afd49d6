import { Link } from "react-router";
import { EventFacts } from "~/components/events/EventFacts";
import { SlotImage } from "~/components/ui/SlotImage";
import { listEvents } from "~/events/events.server";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/events";
import { halfOfPageFrom } from "~/components/ui/Picture";

export async function loader({ context }: Route.LoaderArgs) {
  const rows = await listEvents(context.db);
  return {
    events: rows.map((e) => ({
      id: e.id,
      title: e.title,
      dates: e.dates,
      timeText: e.timeText,
      location: e.location,
      participants: e.participants,
      priceText: e.priceText,
      focus: e.focus,
      image: e.images[0] ?? null,
    })),
  };
}

export default function EventsPage({ loaderData }: Route.ComponentProps) {
  return (
    <section className="container-page py-12 sm:py-16">
      <h1 className="font-display text-4xl text-ink sm:text-5xl">Upcoming Events</h1>
      <p className="mt-3 max-w-2xl text-ink/80">Workshops, styling days and wellness gatherings for our community.</p>
      <ul className="mt-10 grid gap-8 md:grid-cols-2">
        {loaderData.events.map((event, index) => (
          <li key={event.id} className="card flex flex-col overflow-hidden">
            {event.image ? (
              // The first event's image is on a phone's first screen (and is the largest paint there).
              <SlotImage src={event.image} alt="" slot="wide" sizes={halfOfPageFrom("md")} priority={index === 0} className="h-auto w-full object-cover" />
            ) : null}
            <div className="flex flex-1 flex-col gap-3 p-6">
              <h2 className="font-display text-2xl">{event.title}</h2>
              <EventFacts event={event} className="gap-y-1 text-sm" />
              <Link to={`/tickets/${event.id}`} className="btn-primary mt-auto min-h-11 self-start">
                Reserve Your Spot<span className="sr-only">: {event.title}</span>
              </Link>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Events",
    description: "Upcoming Honey Bee workshops, styling days and wellness events in Johannesburg.",
    path: "/events",
    siteUrl: siteUrlFrom(matches),
  });
