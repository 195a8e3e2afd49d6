import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import * as product from "~/routes/product";
import * as tickets from "~/routes/tickets";
import * as workshop from "~/routes/workshop-tablecloth-skirt";
import { createTestDatabase, testContext } from "../support/test-db";
import { routeAnswer } from "../support/route-answer";

const SITE = "https://shop.example";
const matches = [{ id: "root", data: { siteUrl: SITE } }];
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

type Tag = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const call = (fn: (...args: any[]) => any, args: object) => fn(args);
const jsonLd = (tags: Tag[]) =>
  tags.filter((t) => "script:ld+json" in t).map((t) => t["script:ld+json"] as Record<string, unknown>);

async function productMeta(slug: string) {
  const { body: loaderData } = await routeAnswer(() =>
    call(product.loader, {
      params: { slug },
      context: testContext(handle),
      request: new Request(`${SITE}/product/${slug}`),
    }),
  );
  return call(product.meta, { loaderData, data: loaderData, matches, params: { slug } }) as Tag[];
}

describe("product SEO", () => {
  it("has a title, description, canonical URL and Open Graph tags", async () => {
    const tags = await productMeta("beaded-jewellery");
    expect(tags).toContainEqual({ title: "Beaded Jewellery | Honey Bee Sustainable Fashion" });
    expect(tags.find((t) => t.name === "description")?.content).toMatch(/beaded/i);
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: `${SITE}/product/beaded-jewellery` });
    expect(tags).toContainEqual({ property: "og:url", content: `${SITE}/product/beaded-jewellery` });
    expect(tags).toContainEqual({ property: "og:type", content: "product" });
    expect(String(tags.find((t) => t.property === "og:image")?.content)).toMatch(
      /^https:\/\/shop\.example\/images\/.+\.png$/,
    );
  });

  it.each([
    ["beaded-jewellery", "450.00", "https://schema.org/InStock"],
    ["choker-necklaces", "450.00", "https://schema.org/OutOfStock"],
    ["candy-earrings", "350.00", "https://schema.org/LimitedAvailability"],
    ["capsule-wardrobe-reset", "7500.00", "https://schema.org/InStock"],
  ])("%s: Product JSON-LD in ZAR with availability from stock", async (slug, price, availability) => {
    const [ld] = jsonLd(await productMeta(slug));
    expect(ld).toMatchObject({
      "@type": "Product",
      offers: { "@type": "Offer", price, priceCurrency: "ZAR", availability },
    });
  });

  it("an unknown product is a 404 that search engines do not index", async () => {
    const result = await call(product.loader, {
      params: { slug: "nope" },
      context: testContext(handle),
      request: new Request(`${SITE}/product/nope`),
    });
    expect(result.init.status).toBe(404);
    const tags = call(product.meta, {
      loaderData: result.data,
      data: result.data,
      matches,
      params: { slug: "nope" },
    }) as Tag[];
    expect(tags).toContainEqual({ name: "robots", content: "noindex" });
    expect(jsonLd(tags)).toEqual([]);
  });
});

describe("event SEO", () => {
  it("sip-style has Event JSON-LD with ZAR offers whose availability follows the ticket windows", async () => {
    const data = await call(tickets.loader, {
      params: { eventId: "sip-style" },
      context: testContext(handle),
      request: new Request(`${SITE}/tickets/sip-style`),
    });
    const [ld] = jsonLd(
      call(tickets.meta, { data, loaderData: data, matches, params: { eventId: "sip-style" } }) as Tag[],
    );
    expect(ld).toMatchObject({ "@type": "Event", name: "Sip & Style at Nanas", startDate: "2025-09-24T12:00:00.000Z" });
    const offers = ld!.offers as { name: string; price: string; priceCurrency: string; availability: string }[];
    expect(offers.map((o) => [o.name, o.price, o.priceCurrency, o.availability])).toEqual([
      ["Early Bird", "350.00", "ZAR", "https://schema.org/InStock"],
      ["Come With a Friend", "500.00", "ZAR", "https://schema.org/InStock"],
      ["Normal Price", "450.00", "ZAR", "https://schema.org/PreSale"],
    ]);
  });

  it("the workshop page has Event JSON-LD at R250", async () => {
    const data = await call(workshop.loader, {
      params: {},
      context: testContext(handle),
      request: new Request(`${SITE}/workshop/tablecloth-skirt`),
    });
    const tags = call(workshop.meta, { data, loaderData: data, matches, params: {} }) as Tag[];
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: `${SITE}/workshop/tablecloth-skirt` });
    const [ld] = jsonLd(tags);
    expect(ld).toMatchObject({
      "@type": "Event",
      offers: { price: "250.00", priceCurrency: "ZAR", availability: "https://schema.org/InStock" },
    });
  });
});
