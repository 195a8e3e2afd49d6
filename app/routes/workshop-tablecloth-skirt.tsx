import { useEffect, useState } from "react";
import { Link } from "react-router";
import { AddToBag } from "~/components/bag/AddToBag";
import { trackEvent } from "~/analytics/track";
import { findEvent, listTicketOptions } from "~/events/events.server";
import { saleSession, seatCounts, seatsLeftLabel } from "~/events/seats.server";
import { describeSession, nextSession } from "~/events/sessions.server";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/workshop-tablecloth-skirt";
import { halfOfPageFrom, Picture } from "~/components/ui/Picture";

export const WORKSHOP_TITLE = "Transform Tablecloth into Wrap Around Skirt";
const CHECKOUT_URL = `/checkout?${new URLSearchParams({ type: "workshop", item: WORKSHOP_TITLE, price: "R250" })}`;

export async function loader({ context }: Route.LoaderArgs) {
  const now = context.clock.now();
  const event = await findEvent(context.db, "tablecloth-workshop");
  const session = await nextSession(context.db, "tablecloth-workshop", now);
  const options = event ? await listTicketOptions(context.db, event.id) : [];
  const seats =
    event && options.length
      ? await seatCounts(context.db, options, await saleSession(context.db, event, now), now)
      : undefined;
  return {
    nextSessionText: describeSession(session.startsAt, session.endsAt),
    seatsLeft: options.map((o) => seatsLeftLabel(seats?.get(o.id))).find((label) => label !== null) ?? null,
    // Every seat of the session on sale sold or held: its waiting list (decision 122).
    waitlistOptionId: options.find((o) => seats?.get(o.id)?.left === 0)?.id ?? null,
    // The workshop's one ticket option, for "Add to bag" (none while its seats are all gone).
    bagOption:
      options[0] && seats?.get(options[0].id)?.left !== 0
        ? { id: options[0].id, left: seats?.get(options[0].id)?.left ?? null }
        : null,
    description: event?.description ?? "",
    points: event?.descriptionPoints ?? [],
    includes: event?.includes ?? [],
    location: event?.location ?? "",
    images: event?.images.length
      ? event.images
      : [1, 2, 3, 4, 5].map((n) => `/images/workshop/tablecloth-skirt-${n}.svg`),
  };
}

export default function WorkshopPage({ loaderData }: Route.ComponentProps) {
  const { images, points, includes, description, location, nextSessionText, seatsLeft, waitlistOptionId, bagOption } =
    loaderData;
  const [selected, setSelected] = useState(0);
  useEffect(() => {
    trackEvent("event_view", { itemName: WORKSHOP_TITLE });
  }, []);
  return (
    <article className="container-page py-10 sm:py-14">
      <Link to="/#events" className="btn-outline min-h-11">
        ← Back to Events
      </Link>
      <h1 className="mt-6 font-display text-4xl text-ink sm:text-5xl">{WORKSHOP_TITLE}</h1>
      <div className="mt-8 grid gap-10 lg:grid-cols-2">
        <div>
          <Picture
            src={images[selected]!}
            sizes={halfOfPageFrom("lg")}
            priority
            alt={`Workshop photo ${selected + 1} of ${images.length}`}
            width={1200}
            height={900}
            className="aspect-[4/3] w-full rounded-xl object-cover"
          />
          <ul className="mt-3 grid grid-cols-5 gap-2" aria-label="Workshop photos">
            {images.map((src, i) => (
              <li key={src}>
                <button
                  type="button"
                  onClick={() => setSelected(i)}
                  aria-pressed={i === selected}
                  aria-label={`Show photo ${i + 1}`}
                  className={
                    `block min-h-11 w-full overflow-hidden rounded-md ` +
                    `border-2 ${i === selected ? "border-honey" : "border-transparent"}`
                  }
                >
                  <Picture
                    src={src}
                    sizes="(min-width: 1024px) 100px, 20vw"
                    alt=""
                    width={200}
                    height={150}
                    className="aspect-[4/3] w-full object-cover"
                  />
                </button>
              </li>
            ))}
          </ul>
        </div>
        <div className="space-y-6">
          <p className="text-ink/85">{description}</p>
          <section>
            <h2 className="font-display text-2xl">What You'll Learn</h2>
            <ul className="mt-2 list-disc space-y-1 pl-5">
              {points.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </section>
          <section className="card p-5">
            <h2 className="font-display text-2xl">Workshop Details</h2>
            <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
              <dt className="font-semibold">Next session</dt>
              <dd>{nextSessionText}</dd>
              <dt className="font-semibold">Frequency</dt>
              <dd>Monthly</dd>
              <dt className="font-semibold">Duration</dt>
              <dd>3 hours</dd>
              <dt className="font-semibold">Group size</dt>
              <dd>Maximum 8 participants</dd>
              <dt className="font-semibold">Price</dt>
              <dd>R250</dd>
              {location ? (
                <>
                  <dt className="font-semibold">Location</dt>
                  <dd>{location}</dd>
                </>
              ) : null}
            </dl>
            {includes.length ? (
              <>
                <h3 className="mt-4 font-semibold">Included</h3>
                <ul className="mt-1 list-disc pl-5">
                  {includes.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              </>
            ) : null}
          </section>
          {seatsLeft ? (
            <p className="font-semibold text-accent" data-testid="seats-left">
              {seatsLeft}
            </p>
          ) : null}
          <Link to={CHECKOUT_URL} className="btn-primary min-h-11">
            Join Monthly Workshop - R250
          </Link>
          {bagOption ? (
            <AddToBag kind="ticket" id={bagOption.id} name={WORKSHOP_TITLE} available={bagOption.left} />
          ) : waitlistOptionId ? (
            <p className="font-semibold">
              This session is full.{" "}
              <Link to={`/waiting-list/${waitlistOptionId}`} className="link">
                Join the waiting list
              </Link>
            </p>
          ) : null}
        </div>
      </div>
    </article>
  );
}

export const meta: Route.MetaFunction = ({ data: loaded, matches }) => {
  const siteUrl = siteUrlFrom(matches);
  return seo({
    title: WORKSHOP_TITLE,
    description:
      "A monthly 3-hour upcycling workshop: turn a tablecloth into a wrap-around skirt. Maximum 8 participants, R250.",
    path: "/workshop/tablecloth-skirt",
    siteUrl,
    image: "/images/workshop/tablecloth-skirt-1.svg",
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "Event",
        name: WORKSHOP_TITLE,
        description: loaded?.description ?? WORKSHOP_TITLE,
        eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
        eventStatus: "https://schema.org/EventScheduled",
        eventSchedule: { "@type": "Schedule", repeatFrequency: "P1M", duration: "PT3H" },
        maximumAttendeeCapacity: 8,
        location: {
          "@type": "Place",
          name: loaded?.location || "Johannesburg",
          address: { "@type": "PostalAddress", addressCountry: "ZA" },
        },
        image: (loaded?.images ?? []).map((i) => `${siteUrl}${i}`),
        offers: {
          "@type": "Offer",
          price: "250.00",
          priceCurrency: "ZAR",
          availability: "https://schema.org/InStock",
          url: `${siteUrl}/workshop/tablecloth-skirt`,
        },
      },
    ],
  });
};
