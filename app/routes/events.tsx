import { Link } from "react-router";
import { DemoBadge } from "~/components/events/DemoBadge";
import { EventFacts } from "~/components/events/EventFacts";
import { SlotImage } from "~/components/ui/SlotImage";
import { hasStarted } from "~/events/event-phase";
import { listEventsByPhase, type EventRow } from "~/events/events.server";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/events";
import { halfOfPageFrom } from "~/components/ui/Picture";

export async function loader({ context }: Route.LoaderArgs) {
  const now = context.clock.now();
  const { upcoming, past } = await listEventsByPhase(context.db, now);
  const card = (e: EventRow) => ({
    id: e.id,
    title: e.title,
    dates: e.dates,
    timeText: e.timeText,
    location: e.location,
    participants: e.participants,
    priceText: e.priceText,
    focus: e.focus,
    image: e.images[0] ?? null,
    demo: e.demo,
    // Under way (a multi-day event between its days): shown, but no longer sold.
    started: hasStarted(e, now),
  });
  return { upcoming: upcoming.map(card), past: past.map(card) };
}

type EventCard = Route.ComponentProps["loaderData"]["upcoming"][number];

function EventCards({ events, past, firstPriority }: { events: EventCard[]; past: boolean; firstPriority: boolean }) {
  // Upcoming cards sit under the page's h1; past ones under the "Past events" h2.
  const Heading = past ? "h3" : "h2";
  return (
    <ul className="mt-10 grid gap-8 md:grid-cols-2">
      {events.map((event, index) => (
        <li key={event.id} className="card flex flex-col overflow-hidden">
          {event.image ? (
            // The first event's image is on a phone's first screen (and is the largest paint there).
            <SlotImage
              src={event.image}
              alt=""
              slot="wide"
              sizes={halfOfPageFrom("md")}
              priority={firstPriority && index === 0}
              className="h-auto w-full object-cover"
            />
          ) : null}
          <div className="flex flex-1 flex-col gap-3 p-6">
            <Heading className="font-display text-2xl">
              {event.title}
              {event.demo ? <DemoBadge /> : null}
            </Heading>
            <EventFacts event={event} className="gap-y-1 text-sm" />
            {past || event.started ? (
              <Link to={`/tickets/${event.id}`} className="btn-outline mt-auto min-h-11 self-start">
                View Event<span className="sr-only">: {event.title}</span>
              </Link>
            ) : (
              <Link to={`/tickets/${event.id}`} className="btn-primary mt-auto min-h-11 self-start">
                Reserve Your Spot<span className="sr-only">: {event.title}</span>
              </Link>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

export default function EventsPage({ loaderData }: Route.ComponentProps) {
  const { upcoming, past } = loaderData;
  return (
    <section className="container-page py-12 sm:py-16">
      <h1 className="font-display text-4xl text-ink sm:text-5xl">Upcoming Events</h1>
      <p className="mt-3 max-w-2xl text-ink/80">Workshops, styling days and wellness gatherings for our community.</p>
      {upcoming.length ? (
        <EventCards events={upcoming} past={false} firstPriority />
      ) : (
        <p className="mt-10 text-ink/80">New events are on their way. Check back soon.</p>
      )}
      {past.length ? (
        <section aria-labelledby="past-events-heading" className="mt-16">
          <h2 id="past-events-heading" className="font-display text-3xl text-ink">
            Past events
          </h2>
          <EventCards events={past} past firstPriority={!upcoming.length} />
        </section>
      ) : null}
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
