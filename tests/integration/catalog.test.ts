import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogStockKey } from "~/stock/keys";
import { findItemBySlug, listCollectionCards, listServiceCards } from "~/catalog/items.server";
import { robotsTxt, sitemapPaths, sitemapXml } from "~/catalog/sitemap.server";
import type { DatabaseHandle } from "~/db/client.server";
import { catalogItems, orders, stockHolds } from "~/db/schema";
import { findEvent } from "~/events/events.server";
import { findMembershipTier } from "~/memberships/memberships.server";
import { createTestDatabase } from "../support/test-db";

const NOW = new Date("2025-09-10T08:00:00Z");
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close?.();
});

describe("styled collections", () => {
  it("lists visible products and solutions, highest price first, text prices last", async () => {
    // The seed's collection items all have prices, so a "Price on request" piece is added, with the
    // lowest sort order: it would come first if text prices were not put last.
    const [onRequest] = await handle.db
      .insert(catalogItems)
      .values({
        slug: "aaa-bespoke-gown",
        name: "Aaa Bespoke Gown",
        kind: "product",
        priceCents: null,
        priceText: "Price on request",
        description: "Made to measure.",
        sortOrder: -1,
      })
      .returning();
    try {
      const cards = await listCollectionCards(handle.db, NOW);
      expect(cards.map((c) => c.slug)).not.toContain("test-product");
      expect(cards.some((c) => ["speak-and-teach", "fashion-consultation"].includes(c.slug))).toBe(false);
      const priced = cards.filter((c) => c.priceCents !== null).map((c) => c.priceCents as number);
      expect(priced).toEqual([...priced].sort((a, b) => b - a));
      expect(priced.length).toBeGreaterThan(0);
      expect(cards.slice(priced.length).map((c) => c.slug)).toEqual(["aaa-bespoke-gown"]);
    } finally {
      await handle.db.delete(catalogItems).where(eq(catalogItems.id, onRequest!.id));
    }
  });

  it("marks zero stock as sold out and limited stock with the units left", async () => {
    const cards = await listCollectionCards(handle.db, NOW);
    const choker = cards.find((c) => c.slug === "choker-necklaces")!;
    expect(choker.soldOut).toBe(true);
    expect(choker.limitedStock).toBeNull();
    const candy = cards.find((c) => c.slug === "candy-earrings")!;
    expect(candy.soldOut).toBe(false);
    expect(candy.limitedStock).toBe(10);
    const beaded = cards.find((c) => c.slug === "beaded-jewellery")!;
    expect(beaded.limitedStock).toBeNull();
    expect(beaded.soldOut).toBe(false);
  });

  it("subtracts active holds from the limited-stock badge, ignoring expired ones", async () => {
    const [candy] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "candy-earrings"));
    const [order] = await handle.db
      .insert(orders)
      .values({
        reference: "HB-TEST1",
        orderType: "product",
        itemName: "Candy Earrings",
        amountCents: 1000,
        customerFirstName: "A",
        customerLastName: "B",
        customerEmail: "a@example.test",
        customerPhone: "0820000000",
        customerAddress: "1 Street",
        provider: "simulator",
        idempotencyKey: "catalog-test-1",
      })
      .returning();
    await handle.db.insert(stockHolds).values([
      {
        orderId: order!.id,
        stockKey: catalogStockKey(candy!.id),
        quantity: 3,
        expiresAt: new Date(NOW.getTime() + 60_000),
      },
      {
        orderId: order!.id,
        stockKey: catalogStockKey(candy!.id),
        quantity: 4,
        expiresAt: new Date(NOW.getTime() - 60_000),
      },
    ]);
    const cards = await listCollectionCards(handle.db, NOW);
    expect(cards.find((c) => c.slug === "candy-earrings")!.limitedStock).toBe(7);
  });
});

describe("services and lookup", () => {
  it("lists the three services", async () => {
    const cards = await listServiceCards(handle.db);
    expect(cards.map((c) => c.name)).toEqual(["Speak And Teach", "Fashion Consultation", "Honey Bee Coaching"]);
  });

  it("finds hidden items by slug and returns null for unknown or absurd slugs", async () => {
    expect((await findItemBySlug(handle.db, "test-product"))?.priceCents).toBe(500);
    expect(await findItemBySlug(handle.db, "nope")).toBeNull();
    expect(await findItemBySlug(handle.db, "x".repeat(5000))).toBeNull();
  });

  it("answers slugs and ids no row can have (NUL, slashes, spaces) with not found, not a database error", async () => {
    for (const odd of ["\u0000", "a\u0000b", "../etc", " ", "", "é", "%00"]) {
      expect(await findItemBySlug(handle.db, odd), JSON.stringify(odd)).toBeNull();
      expect(await findMembershipTier(handle.db, odd), JSON.stringify(odd)).toBeUndefined();
      expect(await findEvent(handle.db, odd), JSON.stringify(odd)).toBeUndefined();
    }
    expect((await findMembershipTier(handle.db, "creative-bee"))?.priceCents).toBe(15000);
    expect((await findEvent(handle.db, "sip-style"))?.title).toBe("Sip & Style at Nanas");
  });
});

describe("sitemap and robots", () => {
  it("lists public pages with absolute URLs and leaves private and hidden ones out", async () => {
    const paths = await sitemapPaths(handle.db);
    expect(paths).toContain("/product/candy-earrings");
    expect(paths).toContain("/tickets/sip-style");
    // The workshop's ticket id only redirects to its own page, which is listed instead.
    expect(paths).not.toContain("/tickets/tablecloth-workshop");
    expect(paths).toContain("/workshop/tablecloth-skirt");
    expect(paths.filter((p) => p.startsWith("/membership/"))).toHaveLength(12);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).not.toContain("/product/test-product");
    expect(paths.some((p) => p.startsWith("/membership/"))).toBe(true);
    expect(paths.some((p) => p.startsWith("/blog/"))).toBe(true);
    const xml = sitemapXml("https://shop.example", paths);
    expect(xml).toContain("<loc>https://shop.example/about</loc>");
    expect(xml).not.toContain("/admin");
  });

  it("disallows private areas and points at the sitemap", () => {
    const txt = robotsTxt("https://shop.example");
    for (const p of ["/admin", "/checkout", "/account", "/order-confirmation", "/payments", "/api/"])
      expect(txt).toContain(`Disallow: ${p}`);
    expect(txt).toContain("Sitemap: https://shop.example/sitemap.xml");
  });
});
