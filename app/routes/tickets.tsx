import { useEffect } from "react";
import { data, Link, redirect } from "react-router";
import { trackEvent } from "~/analytics/track";
import { Carousel } from "~/components/events/Carousel";
import { EventFacts } from "~/components/events/EventFacts";
import { findEvent, listTicketOptions } from "~/events/events.server";
import { ticketAvailability } from "~/events/ticket-availability";
import { saleSession, seatCounts, seatsLeftLabel } from "~/events/seats.server";
import { GALLERY_EVENT_IDS } from "~/events/ticket-pages";
import { DemoBadge } from "~/components/events/DemoBadge";
import { AddToBag } from "~/components/bag/AddToBag";
import { formatRand, shortRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/tickets";
import { halfOfPageFrom, Picture } from "~/components/ui/Picture";

export async function loader({ params, context }: Route.LoaderArgs) {
  if (params.eventId === "tablecloth-workshop") throw redirect("/workshop/tablecloth-skirt");
  // Every event the site lists has a page here (archived ones are not found).
  const event = await findEvent(context.db, params.eventId);
  if (!event) throw data({ notFound: true }, { status: 404 });
  const now = context.clock.now();
  const options = await listTicketOptions(context.db, event.id);
  const seats = await seatCounts(context.db, options, await saleSession(context.db, event, now), now);
  return {
    event: {
      id: event.id,
      title: event.title,
      dates: event.dates,
      timeText: event.timeText,
      startsAt: event.startsAt?.toISOString() ?? null,
      endsAt: event.endsAt?.toISOString() ?? null,
      location: event.location,
      participants: event.participants,
      description: event.description,
      descriptionPoints: event.descriptionPoints,
      includes: event.includes,
      earlyBird: event.earlyBird,
      focus: event.focus,
      priceText: event.priceText,
      images: event.images,
      ticketsOnSale: event.ticketsOnSale,
      demo: event.demo,
    },
    options: options.map((o) => {
      const availability = ticketAvailability(o, event, now);
      // Every seat sold or held by a checkout in progress: no checkout link (checkout would refuse it).
      const soldOut = availability.status === "available" && seats.get(o.id)?.left === 0;
      return {
        id: o.id,
        type: o.type,
        priceCents: o.priceCents,
        description: o.description,
        status: soldOut ? ("sold-out" as const) : availability.status,
        label: soldOut ? "Sold Out" : availability.status === "available" ? null : availability.label,
        seatsLeft: availability.status === "available" ? seatsLeftLabel(seats.get(o.id)) : null,
        left: seats.get(o.id)?.left ?? null,
      };
    }),
    showGallery: GALLERY_EVENT_IDS.has(event.id),
  };
}

export default function TicketsPage({ loaderData }: Route.ComponentProps) {
  const { event, options, showGallery } = loaderData;
  useEffect(() => {
    trackEvent("event_view", { itemName: event.title });
  }, [event.title]);
  const comingSoon = !event.ticketsOnSale || options.length === 0;

  return (
    <article className="container-page py-10 sm:py-14">
      <Link to="/#events" className="btn-outline min-h-11">
        ← Back to Events
      </Link>
      <h1 className="mt-6 font-display text-4xl text-ink sm:text-5xl">
        {event.title}
        {event.demo ? <DemoBadge /> : null}
      </h1>
      <div className="mt-8 grid gap-10 lg:grid-cols-2">
        <div>
          {event.images.length > 1 ? (
            <Carousel images={event.images} label={`${event.title} photos`} />
          ) : event.images[0] ? (
            <Picture
              src={event.images[0]}
              sizes={halfOfPageFrom("lg")}
              priority
              alt={event.title}
              width={1200}
              height={800}
              className="aspect-[3/2] w-full rounded-xl object-cover"
            />
          ) : null}
          {showGallery ? (
            <Link to="/events-gallery" className="btn-dark mt-4 min-h-11">
              View Events Gallery
            </Link>
          ) : null}
        </div>
        <div className="space-y-6">
          <EventFacts event={event} className="card gap-y-2 p-5" />
          <p className="text-ink/85">{event.description}</p>
          {event.descriptionPoints.length ? (
            <ul className="list-disc space-y-1 pl-5">
              {event.descriptionPoints.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          ) : null}
          {event.includes.length ? (
            <section>
              <h2 className="font-display text-2xl">What's Included</h2>
              <ul className="mt-2 list-disc space-y-1 pl-5">
                {event.includes.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </section>
          ) : null}
          <section aria-labelledby="tickets-heading">
            <h2 id="tickets-heading" className="font-display text-2xl">
              {comingSoon ? "Tickets Coming Soon" : "Tickets"}
            </h2>
            {comingSoon ? (
              <p className="mt-2 text-ink/80">Ticket sales for this event open soon. Check back for details.</p>
            ) : (
              <ul className="mt-4 space-y-4">
                {options.map((o) => (
                  <li
                    key={o.id}
                    className="card flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between"
                  >
                    <div>
                      <h3 className="text-lg font-semibold">{o.type}</h3>
                      <p className="font-display text-xl">{formatRand(o.priceCents)}</p>
                      {o.description ? <p className="text-sm text-ink/80">{o.description}</p> : null}
                      {o.seatsLeft ? (
                        <p className="mt-1 text-sm font-semibold text-accent" data-testid="seats-left">
                          {o.seatsLeft}
                        </p>
                      ) : null}
                    </div>
                    {o.status === "available" ? (
                      <div className="flex shrink-0 flex-col gap-3">
                        <Link className="btn-primary min-h-11" to={ticketCheckoutHref(event.title, o)}>
                          Buy Ticket<span className="sr-only">: {o.type}</span>
                        </Link>
                        <AddToBag kind="ticket" id={o.id} name={`${event.title} - ${o.type}`} available={o.left} />
                      </div>
                    ) : o.status === "sold-out" ? (
                      <div className="flex shrink-0 flex-col gap-2">
                        <button
                          type="button"
                          disabled
                          className="btn-outline min-h-11 cursor-not-allowed opacity-100 text-ink/80"
                        >
                          {o.label}
                        </button>
                        <Link className="btn-primary min-h-11" to={`/waiting-list/${o.id}`}>
                          Join the waiting list<span className="sr-only">: {o.type}</span>
                        </Link>
                      </div>
                    ) : (
                      <button
                        type="button"
                        disabled
                        className="btn-outline min-h-11 shrink-0 cursor-not-allowed opacity-100 text-ink/80"
                      >
                        {o.label}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </div>
    </article>
  );
}

/** Checkout for one ticket option: the item is named "Event - Ticket type". */
function ticketCheckoutHref(eventTitle: string, option: { type: string; priceCents: number }): string {
  const query = new URLSearchParams({
    type: "ticket",
    item: `${eventTitle} - ${option.type}`,
    price: shortRand(option.priceCents),
  });
  return `/checkout?${query}`;
}

/** schema.org availability of a ticket option: on sale, not yet on sale, or no longer sold. */
function offerAvailability(status: string): string {
  if (status === "available") return "https://schema.org/InStock";
  if (status === "not-yet") return "https://schema.org/PreSale";
  if (status === "sold-out") return "https://schema.org/SoldOut";
  return "https://schema.org/Discontinued";
}

export const meta: Route.MetaFunction = ({ data: loaded, matches, params }) => {
  const siteUrl = siteUrlFrom(matches);
  if (!loaded)
    return seo({
      title: "Event Not Found",
      description: "This event could not be found.",
      path: `/tickets/${params.eventId}`,
      siteUrl,
      noindex: true,
    });
  const { event, options } = loaded;
  const prices = options.map((o) => o.priceCents);
  return seo({
    title: event.title,
    description: event.focus,
    path: `/tickets/${event.id}`,
    siteUrl,
    image: event.images[0],
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "Event",
        name: event.title,
        description: event.description,
        ...(event.startsAt ? { startDate: event.startsAt } : {}),
        ...(event.endsAt ? { endDate: event.endsAt } : {}),
        eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
        eventStatus: "https://schema.org/EventScheduled",
        location: {
          "@type": "Place",
          name: event.location,
          address: { "@type": "PostalAddress", addressCountry: "ZA" },
        },
        image: event.images.map((i) => `${siteUrl}${i}`),
        ...(prices.length
          ? {
              offers: options.map((o) => ({
                "@type": "Offer",
                name: o.type,
                price: (o.priceCents / 100).toFixed(2),
                priceCurrency: "ZAR",
                availability: offerAvailability(o.status),
                url: `${siteUrl}/tickets/${event.id}`,
              })),
            }
          : {}),
      },
    ],
  });
};

export function ErrorBoundary() {
  return (
    <section className="container-page py-16 text-center">
      <h1 className="font-display text-4xl">Event Not Found</h1>
      <p className="mt-3 text-ink/80">We couldn't find the event you're looking for.</p>
      <Link to="/" className="btn-primary mt-6 min-h-11">
        Return Home
      </Link>
    </section>
  );
}
