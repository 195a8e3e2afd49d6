import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listCollectionCards, listServiceCards } from "~/catalog/items.server";
import { sitemapPaths } from "~/catalog/sitemap.server";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, catalogItems, orders } from "~/db/schema";
import { findSellable } from "~/orders/sellable.server";
import * as productEdit from "~/routes/admin/product-edit";
import * as productList from "~/routes/admin/products";
import * as productPage from "~/routes/product";
import { countRows } from "../support/generated";
import { createTestDatabase, testContext } from "../support/test-db";
import { checkout, orderIdFrom } from "../support/checkout";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";

/** The owner's product form, through its real loader and action, and what visitors then see. */
const BASE = "http://localhost:3000";
const NOW = new Date("2025-09-10T10:00:00+02:00");
let handle: DatabaseHandle;
let cookie: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  cookie = await signedInOwner(handle);
});
afterAll(() => handle?.close());

const call = (fn: (args: never) => unknown, request: Request, params: Record<string, string> = {}) =>
  routeAnswer(() => fn({ request, params, context: testContext(handle) } as never));

/** The form as the browser posts it: multipart, photos as repeated photoSrc / photoAlt fields in order. */
function productForm(path: string, fields: Record<string, string>, photos: { src: string; alt: string }[] = []) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  for (const p of photos) {
    body.append("photoSrc", p.src);
    body.append("photoAlt", p.alt);
  }
  return new Request(`${BASE}${path}`, { method: "POST", body, headers: { Origin: BASE, Cookie: cookie } });
}

const get = (path: string) => new Request(`${BASE}${path}`, { headers: { Cookie: cookie } });

const dress = {
  intent: "save",
  name: "Shweshwe Wrap Dress",
  slug: "",
  kind: "product",
  price: "650",
  priceText: "",
  description: "A wrap dress cut from reclaimed shweshwe.",
  stock: "3",
  visible: "on",
  sortOrder: "5",
};
const photos = [
  { src: "/images/products/dashiki-dress-1.svg", alt: "The wrap dress on a Honey, front" },
  { src: "/images/products/dashiki-dress-2.svg", alt: "The wrap dress, back" },
];

async function productBySlug(slug: string) {
  const [row] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, slug));
  return row;
}

describe("adding a product", () => {
  it("stores it, shows it in the shop with the badge its stock gives, on its page, in the sitemap, and logs it", async () => {
    const result = await call(productEdit.action, productForm("/admin/products/new", dress, photos));
    expect(result.status).toBe(302);
    const row = await productBySlug("shweshwe-wrap-dress");
    expect(row).toMatchObject({
      name: dress.name,
      priceCents: 65000,
      priceText: "R 650.00",
      stockQuantity: 3,
      visible: true,
      sortOrder: 5,
    });
    expect(row.images).toEqual(photos.map((p) => p.src));
    expect(row.imageAlts).toEqual(photos.map((p) => p.alt));
    expect(result.location).toBe(`/admin/products/${row.id}`);
    expect(result.headers.get("set-cookie")).toMatch(/^admin_toast=/);

    const card = (await listCollectionCards(handle.db, NOW)).find((c) => c.slug === row.slug);
    expect(card).toMatchObject({
      limitedStock: 3,
      soldOut: false,
      priceText: "R 650.00",
      image: photos[0].src,
      imageAlt: photos[0].alt,
    });
    const page = await call(productPage.loader, new Request(`${BASE}/product/${row.slug}`), { slug: row.slug });
    expect(page.body.product).toMatchObject({ name: dress.name, available: 3 });
    expect(await sitemapPaths(handle.db)).toContain(`/product/${row.slug}`);

    const [entry] = await handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, "product.create"));
    expect(entry).toMatchObject({ entity: "product", entityId: String(row.id), summary: `Added ${dress.name}` });
  });

  it("a consultation service shows on /consultation-services, and a price on request is text", async () => {
    const result = await call(
      productEdit.action,
      productForm("/admin/products/new", {
        ...dress,
        name: "Closet Audit",
        kind: "service",
        price: "",
        priceText: "Contact Us",
        stock: "",
      }),
    );
    expect(result.status).toBe(302);
    const card = (await listServiceCards(handle.db)).find((c) => c.name === "Closet Audit");
    expect(card).toMatchObject({ priceCents: null, priceText: "Contact Us" });
  });

  it("refuses bad input with a message per field and stores nothing", async () => {
    const items = await countRows(handle, catalogItems);
    const audits = await countRows(handle, adminAuditLog);
    const cases: [Record<string, string>, { src: string; alt: string }[], string][] = [
      [{ ...dress, name: "  " }, [], "name"],
      [{ ...dress, name: "Another", price: "four hundred" }, [], "price"],
      [{ ...dress, name: "Another", price: "", priceText: "" }, [], "price"],
      [{ ...dress, name: "Another", stock: "-1" }, [], "stock"],
      [{ ...dress, name: "Another", slug: "Not A Slug" }, [], "slug"],
      [{ ...dress, name: "Another", kind: "weapon" }, [], "kind"],
      [{ ...dress, name: "Another" }, [{ src: photos[0].src, alt: "  " }], "photos.0.alt"],
      [{ ...dress, name: "Another" }, [{ src: "https://evil.example/x.jpg", alt: "x" }], "photos.0.src"],
      [{ ...dress, name: "Choker necklaces" }, [], "name"],
      [{ ...dress, name: "Nul\u0000Dress" }, [], "name"],
      [{ ...dress, name: "Another", description: "bad\u0000byte" }, [], "description"],
      [{ ...dress, name: "Another", price: "", priceText: "Call\nus" }, [], "priceText"],
      [{ ...dress, name: "Another", slug: "candy-earrings" }, [], "slug"],
    ];
    for (const [fields, pics, field] of cases) {
      const result = await call(productEdit.action, productForm("/admin/products/new", fields, pics));
      expect(result.status, `${field}: ${JSON.stringify(fields)}`).toBe(400);
      expect((result.body.fieldErrors as Record<string, string>)[field], field).toBeTruthy();
    }
    expect(await countRows(handle, catalogItems)).toBe(items);
    expect(await countRows(handle, adminAuditLog)).toBe(audits);
  });
});

describe("editing a product", () => {
  it("a new slug keeps the old address working (301 to the new one)", async () => {
    const row = await productBySlug("shweshwe-wrap-dress");
    const result = await call(
      productEdit.action,
      productForm(`/admin/products/${row.id}`, { ...dress, slug: "shweshwe-dress" }, photos),
      { id: String(row.id) },
    );
    expect(result.status).toBe(302);
    const old = await call(productPage.loader, new Request(`${BASE}/product/shweshwe-wrap-dress`), {
      slug: "shweshwe-wrap-dress",
    });
    expect(old.status).toBe(301);
    expect(old.location).toBe("/product/shweshwe-dress");
    // Renaming back makes the old address the real one again, with no redirect loop.
    await call(
      productEdit.action,
      productForm(`/admin/products/${row.id}`, { ...dress, slug: "shweshwe-wrap-dress" }, photos),
      { id: String(row.id) },
    );
    const back = await call(productPage.loader, new Request(`${BASE}/product/shweshwe-wrap-dress`), {
      slug: "shweshwe-wrap-dress",
    });
    expect(back.status).toBe(200);
    const other = await call(productPage.loader, new Request(`${BASE}/product/shweshwe-dress`), {
      slug: "shweshwe-dress",
    });
    expect(other.location).toBe("/product/shweshwe-wrap-dress");
  });

  it("a price change applies to new checkouts only; an earlier order keeps what it charged", async () => {
    const before = await checkout(handle, "product", dress.name);
    const earlierOrderId = orderIdFrom(before);
    const row = await productBySlug("shweshwe-wrap-dress");
    await call(productEdit.action, productForm(`/admin/products/${row.id}`, { ...dress, price: "700" }, photos), {
      id: String(row.id),
    });
    const [earlier] = await handle.db.select().from(orders).where(eq(orders.id, earlierOrderId));
    expect(earlier.amountCents).toBe(65000);
    const now = await findSellable(handle.db, "product", dress.name, NOW);
    expect(now.ok && now.item.amountCents).toBe(70000);
    const [audit] = await handle.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.summary, `Changed priceCents, priceText of ${dress.name}`));
    expect(audit.before).toEqual({ priceCents: 65000, priceText: "R 650.00" });
    expect(audit.after).toEqual({ priceCents: 70000, priceText: "R 700.00" });
  });

  it("stock can't go below the units checkouts in progress hold", async () => {
    const row = await productBySlug("shweshwe-wrap-dress");
    // One unit is held by the order above; a second buyer holds another.
    orderIdFrom(await checkout(handle, "product", dress.name));
    const tooLow = await call(
      productEdit.action,
      productForm(`/admin/products/${row.id}`, { ...dress, price: "700", stock: "1" }, photos),
      { id: String(row.id) },
    );
    expect(tooLow.status).toBe(400);
    expect((tooLow.body.fieldErrors as Record<string, string>).stock).toMatch(/2 units are held/);
    expect((await productBySlug("shweshwe-wrap-dress")).stockQuantity).toBe(3);
    const ok = await call(
      productEdit.action,
      productForm(`/admin/products/${row.id}`, { ...dress, price: "700", stock: "2" }, photos),
      { id: String(row.id) },
    );
    expect(ok.status).toBe(302);
    const card = (await listCollectionCards(handle.db, NOW)).find((c) => c.slug === row.slug);
    expect(card).toMatchObject({ soldOut: true, limitedStock: null });
  });

  it("the list finds it by search and kind, with stock left and held", async () => {
    const list = await call(productList.loader, get("/admin/products?q=shweshwe&kind=product"));
    const products = list.body.products as { name: string; left: number; held: number }[];
    expect(products.map((p) => p.name)).toEqual([dress.name]);
    expect(products[0]).toMatchObject({ left: 0, held: 2 });
    const services = await call(productList.loader, get("/admin/products?kind=service"));
    expect((services.body.products as { name: string }[]).every((p) => p.name !== dress.name)).toBe(true);
  });

  it("an unknown or malformed id is a 404", async () => {
    for (const id of ["999999", "abc", "0", "1e3"]) {
      const result = await call(productEdit.loader, get(`/admin/products/${id}`), { id });
      expect(result.status, id).toBe(404);
    }
  });
});

describe("removing a product", () => {
  it("one never ordered is deleted", async () => {
    const row = (await handle.db.select().from(catalogItems).where(eq(catalogItems.name, "Closet Audit")))[0];
    const result = await call(productEdit.action, productForm(`/admin/products/${row.id}`, { intent: "delete" }), {
      id: String(row.id),
    });
    expect(result.status).toBe(302);
    expect(await handle.db.select().from(catalogItems).where(eq(catalogItems.id, row.id))).toEqual([]);
  });

  it("one with orders is archived: gone from the shop, its page and checkout, kept for its orders", async () => {
    const row = await productBySlug("shweshwe-wrap-dress");
    const result = await call(productEdit.action, productForm(`/admin/products/${row.id}`, { intent: "delete" }), {
      id: String(row.id),
    });
    expect(result.status).toBe(302);
    expect(await productBySlug("shweshwe-wrap-dress")).toMatchObject({ archived: true, visible: false });
    expect((await listCollectionCards(handle.db, NOW)).some((c) => c.slug === row.slug)).toBe(false);
    const page = await call(productPage.loader, new Request(`${BASE}/product/${row.slug}`), { slug: row.slug });
    expect(page.status).toBe(404);
    expect((await findSellable(handle.db, "product", dress.name, NOW)).ok).toBe(false);
    expect(await sitemapPaths(handle.db)).not.toContain(`/product/${row.slug}`);
    const list = await call(productList.loader, get("/admin/products?q=shweshwe"));
    expect(list.body.products).toEqual([]);
  });
});
