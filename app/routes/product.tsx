import { useEffect, useState } from "react";
import { data, Link, redirect } from "react-router";
import { trackEvent } from "~/analytics/track";
import { heldUnits, unitsAvailable } from "~/stock/availability.server";
import { catalogStockKey } from "~/stock/keys";
import { currentSlugFor, findItemBySlug } from "~/catalog/items.server";
import { ProductGallery } from "~/components/catalog/ProductGallery";
import { AddToBag } from "~/components/bag/AddToBag";
import { ProductChoice } from "~/components/catalog/ProductChoice";
import { listVariants } from "~/catalog/product-variants.server";
import { productGroupJsonLd, summarizeRows } from "~/catalog/product-options";
import { formatRand, shortRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/product";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const item = await findItemBySlug(context.db, params.slug);
  if (!item) {
    // A renamed product's old links still lead to it.
    const moved = await currentSlugFor(context.db, params.slug);
    if (moved) throw redirect(`/product/${encodeURIComponent(moved)}`, 301);
    return data({ product: null }, { status: 404 });
  }
  const now = context.clock.now();
  const options = item.optionNames;
  // What a buyer may know of each row: its values, price, photo and what is left, not the stock count behind it.
  const rows = options.length
    ? ((await listVariants(context.db, [item.id], now)).get(item.id) ?? []).map(
        ({ stockQuantity: _count, ...row }) => row,
      )
    : [];
  const summary = options.length ? summarizeRows(item.priceCents, rows) : null;
  const held = summary ? null : await heldUnits(context.db, [catalogStockKey(item.id)], now);
  const available = summary
    ? summary.soldOut
      ? 0
      : summary.limitedStock
    : unitsAvailable(item.stockQuantity, held?.get(catalogStockKey(item.id)) ?? 0);
  const query = new URL(request.url).searchParams;
  return {
    product: {
      id: item.id,
      slug: item.slug,
      name: item.name,
      kind: item.kind,
      priceCents: item.priceCents,
      priceText: summary?.priceText ?? (item.priceCents === null ? item.priceText : formatRand(item.priceCents)),
      description: item.description,
      images: item.images,
      photos: item.images.map((src, i) => ({ src, alt: item.imageAlts[i] ?? "" })),
      available,
      visible: item.visible,
      options,
      rows,
      // A search result's offer links to its row: the page opens with it chosen.
      initial: {
        option1: (query.get("option1") ?? "").slice(0, 100),
        option2: (query.get("option2") ?? "").slice(0, 100),
      },
    },
  };
}

export default function Product({ loaderData }: Route.ComponentProps) {
  const { product } = loaderData;
  const viewedName = product?.name;
  useEffect(() => {
    if (viewedName) trackEvent("product_view", { itemName: viewedName });
  }, [viewedName]);

  // The chosen size's or colour's own photo, when the owner gave it one.
  const [rowPhoto, setRowPhoto] = useState<string | null>(null);

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
  // A product with sizes or colours shows the chosen row's price and stock in its own form.
  const choosing = product.options.length > 0 && !soldOut && product.priceCents !== null;
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
        <ProductGallery photos={product.photos} name={product.name} show={rowPhoto} />
        <div>
          <h1 className="font-display text-4xl sm:text-5xl">{product.name}</h1>
          {!choosing && (
            <p className="mt-4 text-2xl font-semibold">
              {soldOut ? (
                <s aria-label={`Was ${product.priceText}, sold out`}>{product.priceText}</s>
              ) : (
                product.priceText
              )}
            </p>
          )}
          {soldOut && (
            <p className="mt-3 inline-block rounded-full bg-ink px-4 py-1 text-sm font-bold tracking-wider text-cream">
              SOLD OUT
            </p>
          )}
          {!soldOut && !choosing && product.available !== null && (
            <p className="mt-3 inline-block rounded-full bg-honey px-4 py-1 text-sm font-bold tracking-wider text-ink">
              {product.available} LIMITED STOCK!
            </p>
          )}
          <p className="mt-6 leading-relaxed text-ink-soft">{product.description}</p>
          {choosing ? (
            <ProductChoice
              product={product}
              options={product.options}
              rows={product.rows}
              initial={product.initial}
              onPhoto={setRowPhoto}
            />
          ) : !soldOut && orderHref && product.visible ? (
            <div className="mt-8">
              <AddToBag kind="catalog" id={product.id} name={product.name} available={product.available} />
            </div>
          ) : null}
          <div className="mt-8 flex flex-wrap gap-3">
            {!soldOut && !choosing && orderHref && (
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
      product.options.length > 0
        ? productGroupJsonLd({
            siteUrl,
            path,
            groupId: product.slug,
            name: product.name,
            description: product.description,
            images: product.images,
            priceCents: product.priceCents,
            options: product.options,
            rows: product.rows,
          })
        : {
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
