import { listCollectionCards } from "~/catalog/items.server";
import { ItemCard } from "~/components/catalog/ItemCard";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/styled-collections";

export async function loader({ context }: Route.LoaderArgs) {
  return { items: await listCollectionCards(context.db, context.clock.now()) };
}

export default function StyledCollections({ loaderData }: Route.ComponentProps) {
  return (
    <section className="container-page py-12 sm:py-16">
      <p className="text-sm font-semibold tracking-widest text-accent uppercase">Shop</p>
      <h1 className="font-display mt-2 text-4xl sm:text-5xl">Styled Collections and Solutions</h1>
      <p className="mt-4 max-w-2xl text-ink-soft">
        Handmade, upcycled pieces and wardrobe solutions, each made in small batches in South Africa.
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
    title: "Styled Collections and Solutions",
    description: "Handmade, upcycled jewellery, dresses and hats plus wardrobe solutions from Honey Bee Sustainable Fashion.",
    path: "/styled-collections",
    siteUrl: siteUrlFrom(matches),
  });
}
