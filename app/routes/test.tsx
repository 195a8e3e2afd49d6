import { data, Link } from "react-router";
import { findItemBySlug } from "~/catalog/items.server";
import { SlotImage } from "~/components/ui/SlotImage";
import { formatRand, shortRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/test";

const TEST_SLUG = "test-product";

export async function loader({ context }: Route.LoaderArgs) {
  const item = await findItemBySlug(context.db, TEST_SLUG);
  if (!item || item.priceCents === null) throw data("Product not found", { status: 404 });
  return {
    name: item.name,
    priceCents: item.priceCents,
    description: item.description,
    image: item.images[0] ?? null,
  };
}

export default function TestProduct({ loaderData }: Route.ComponentProps) {
  const { name, priceCents, description, image } = loaderData;
  const checkout = `/checkout?type=product&item=${encodeURIComponent(name)}&price=${encodeURIComponent(shortRand(priceCents))}`;
  return (
    <section className="container-page py-12 sm:py-16">
      <div className="mx-auto grid max-w-4xl items-center gap-8 sm:grid-cols-2">
        {image && (
          <SlotImage
            src={image}
            alt={name}
            slot="portrait"
            sizes="(min-width: 896px) 430px, (min-width: 640px) 50vw, 100vw"
            priority
            className="card h-auto w-full rounded-3xl object-cover"
          />
        )}
        <div>
          <p className="text-sm font-semibold tracking-widest text-accent uppercase">Payment test</p>
          <h1 className="font-display mt-2 text-4xl">{name}</h1>
          <p className="mt-3 text-2xl font-semibold">{formatRand(priceCents)}</p>
          <p className="text-ink-soft mt-4">{description}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to={checkout} className="btn-primary">
              Order Now
            </Link>
            <Link to="/" className="btn-outline">
              Back to Home
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Test Product",
    description: "A R5.00 product for testing the checkout and payment flow.",
    path: "/test",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
}
