import { useEffect } from "react";
import { data, Link, redirect } from "react-router";
import { trackEvent } from "~/analytics/track";
import { heldUnits, unitsAvailable } from "~/stock/availability.server";
import { catalogStockKey } from "~/stock/keys";
import { currentSlugFor, findItemBySlug } from "~/catalog/items.server";
import { ProductGallery } from "~/components/catalog/ProductGallery";
import { AddToBag } from "~/components/bag/AddToBag";
import { formatRand, shortRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/product";

export async function loader({ params, context }: Route.LoaderArgs) {
  const item = await findItemBySlug(context.db, params.slug);
  if (!item) {
    // A renamed product's old links still lead to it.
    const moved = await currentSlugFor(context.db, params.slug);
    if (moved) throw redirect(`/product/${encodeURIComponent(moved)}`, 301);
    return data({ product: null }, { status: 404 });
  }
  const held = await heldUnits(context.db, [catalogStockKey(item.id)], context.clock.now());
  const available = unitsAvailable(item.stockQuantity, held.get(catalogStockKey(item.id)) ?? 0);
  return {
    product: {
      id: item.id,
      slug: item.slug,
      name: item.name,
      kind: item.kind,
      priceCents: item.priceCents,
      priceText: item.priceCents === null ? item.priceText : formatRand(item.priceCents),
      description: item.description,
      images: item.images,
      photos: item.images.map((src, i) => ({ src, alt: item.imageAlts[i] ?? "" })),
      available,
      visible: item.visible,
    },
  };
}

export default function Product({ loaderData }: Route.ComponentProps) {
  const { product } = loaderData;
  const viewedName = product?.name;
  useEffect(() => {
    if (viewedName) trackEvent("product_view", { itemName: viewedName });
  }, [viewedName]);

  if (!product) {
    return (
      <section className="container-page py-24 text-center">
        <h1 className="font-display text-3xl sm:text-4xl">Product not found</h1>
        <Link to="/styled-collections" className="btn-primary mt-8">
          Back to Collections
        </Link>
      </section>
    );
  }

  const soldOut = product.available === 0;
  const orderHref =
    product.priceCents === null
      ? null
      : `/checkout?type=product&item=${encodeURIComponent(product.name)}&price=${encodeURIComponent(shortRand(product.priceCents))}`;
  const contactHref = `/contact?subject=${encodeURIComponent(`Enquiry about ${product.name}`)}`;
  const backHref = product.kind === "service" ? "/consultation-services" : "/styled-collections";

  return (
    <section className="container-page py-10 sm:py-16">
      <Link to={backHref} className="link text-sm">
        ← Back
      </Link>
      <div className="mt-6 grid gap-10 md:grid-cols-2">
        <ProductGallery photos={product.photos} name={product.name} />
        <div>
          <h1 className="font-display text-4xl sm:text-5xl">{product.name}</h1>
          <p className="mt-4 text-2xl font-semibold">
            {soldOut ? <s aria-label={`Was ${product.priceText}, sold out`}>{product.priceText}</s> : product.priceText}
          </p>
          {soldOut && (
            <p className="mt-3 inline-block rounded-full bg-ink px-4 py-1 text-sm font-bold tracking-wider text-cream">
              SOLD OUT
            </p>
          )}
          {!soldOut && product.available !== null && (
            <p className="mt-3 inline-block rounded-full bg-honey px-4 py-1 text-sm font-bold tracking-wider text-ink">
              {product.available} LIMITED STOCK!
            </p>
          )}
          <p className="mt-6 leading-relaxed text-ink-soft">{product.description}</p>
          {!soldOut && orderHref ? (
            <div className="mt-8">
              <AddToBag kind="catalog" id={product.id} name={product.name} available={product.available} />
            </div>
          ) : null}
          <div className="mt-8 flex flex-wrap gap-3">
            {!soldOut && orderHref && (
              <Link
                to={orderHref}
                className="btn-primary"
                onClick={() => {
                  if (product.kind === "service") trackEvent("consultation_booking", { itemName: product.name });
                }}
              >
                Order Now
              </Link>
            )}
            <Link to={contactHref} className="btn-outline">
              Contact for Details
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}

export function meta({ loaderData, matches, params }: Route.MetaArgs) {
  const siteUrl = siteUrlFrom(matches);
  const product = loaderData?.product;
  if (!product) {
    return seo({
      title: "Product not found",
      description: "This product does not exist.",
      path: `/product/${params.slug}`,
      siteUrl,
      noindex: true,
    });
  }
  const availability =
    product.available === 0
      ? "https://schema.org/OutOfStock"
      : product.available !== null
        ? "https://schema.org/LimitedAvailability"
        : "https://schema.org/InStock";
  const path = `/product/${encodeURIComponent(product.slug)}`;
  return seo({
    title: product.name,
    description: product.description.slice(0, 160),
    path,
    siteUrl,
    image: product.images[0],
    type: "product",
    noindex: !product.visible,
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "Product",
        name: product.name,
        description: product.description,
        image: product.images.map((i) => `${siteUrl}${i}`),
        brand: { "@type": "Brand", name: "Honey Bee Sustainable Fashion" },
        ...(product.priceCents !== null && {
          offers: {
            "@type": "Offer",
            price: (product.priceCents / 100).toFixed(2),
            priceCurrency: "ZAR",
            availability,
            url: `${siteUrl}${path}`,
          },
        }),
      },
    ],
  });
}
