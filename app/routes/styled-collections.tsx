import { redirect } from "react-router";
import { COLLECTION_SORTS, DEFAULT_COLLECTION_SORT, parseCollectionSort } from "~/catalog/collection-options";
import { listCollectionCards } from "~/catalog/items.server";
import { ItemCard } from "~/components/catalog/ItemCard";
import { SortForm } from "~/components/ui/SortForm";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/styled-collections";

export async function loader({ request, context }: Route.LoaderArgs) {
  const requested = new URL(request.url).searchParams.get("sort");
  const sort = requested === null ? DEFAULT_COLLECTION_SORT : parseCollectionSort(requested);
  // The page cache keeps one page per address: an unknown sort goes to the page itself rather than
  // filling the cache with copies of it.
  if (sort === null) throw redirect("/styled-collections");
  return { items: await listCollectionCards(context.db, context.clock.now(), sort), sort };
}

export default function StyledCollections({ loaderData }: Route.ComponentProps) {
  const { items, sort } = loaderData;
  return (
    <section className="container-page py-12 sm:py-16">
      <p className="text-sm font-semibold tracking-widest text-accent uppercase">Shop</p>
      <h1 className="font-display mt-2 text-4xl sm:text-5xl">Styled Collections and Solutions</h1>
      <p className="mt-4 max-w-2xl text-ink-soft">
        Handmade, upcycled pieces and wardrobe solutions, each made in small batches in South Africa.
      </p>
      <SortForm
        action="/styled-collections"
        id="collection-sort"
        sort={sort}
        choices={COLLECTION_SORTS}
        className="mt-8 flex flex-wrap items-end gap-2"
      />
      <ul className="mt-8 grid grid-cols-2 gap-4 sm:gap-6 lg:grid-cols-3">
        {/* The first row is on a phone's first screen: its images load at once, not lazily. */}
        {items.map((item, index) => (
          <ItemCard key={item.slug} item={item} priority={index < 2} />
        ))}
      </ul>
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Styled Collections and Solutions",
    description:
      "Handmade, upcycled jewellery, dresses and hats plus wardrobe solutions from Honey Bee Sustainable Fashion.",
    path: "/styled-collections",
    siteUrl: siteUrlFrom(matches),
  });
}
