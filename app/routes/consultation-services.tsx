import { listServiceCards } from "~/catalog/items.server";
import { ItemCard } from "~/components/catalog/ItemCard";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/consultation-services";

export async function loader({ context }: Route.LoaderArgs) {
  return { items: await listServiceCards(context.db) };
}

export default function ConsultationServices({ loaderData }: Route.ComponentProps) {
  return (
    <section className="container-page py-12 sm:py-16">
      <p className="text-sm font-semibold tracking-widest text-accent uppercase">Services</p>
      <h1 className="font-display mt-2 text-4xl sm:text-5xl">Consultation Services</h1>
      <p className="mt-4 max-w-2xl text-ink-soft">
        Personal styling, coaching and talks to help you dress with intention and love what you already own.
      </p>
      <ul className="mt-10 grid grid-cols-2 gap-4 sm:gap-6 lg:grid-cols-3">
        {/* The first row is on a phone's first screen: its images load at once, not lazily. */}
        {loaderData.items.map((item, index) => (
          <ItemCard key={item.slug} item={item} priority={index < 2} />
        ))}
      </ul>
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Consultation Services",
    description: "Fashion consultations, coaching and speaking engagements on sustainable style.",
    path: "/consultation-services",
    siteUrl: siteUrlFrom(matches),
  });
}
