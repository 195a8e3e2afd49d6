import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogCard } from "~/catalog/items.server";
import { fieldsWithErrors } from "~/components/admin/fields";
import { photoPickerErrors } from "~/components/admin/PhotoPicker";
import type { DatabaseHandle } from "~/db/client.server";
import { catalogItems } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import * as productEdit from "~/routes/admin/product-edit";
import * as collections from "~/routes/styled-collections";
import { createTestDatabase, testContext } from "../support/test-db";
import { get, multipart } from "../support/admin-content";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";

/** The owner's "New" tick and /styled-collections' sorts, through the real loaders and action, by the app's clock. */
const clock = fixedClock("2026-11-27T10:00:00+02:00");
const DAY = 24 * 60 * 60 * 1000;
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});

/** A fresh admin session at the clock's time (moving the clock a month on ends an older one). */
const signedIn = () => signedInOwner(handle, { clock });
afterAll(() => handle?.close());

const call = (fn: (args: never) => unknown, request: Request, params: Record<string, string> = {}) =>
  routeAnswer(() => fn({ request, params, context: testContext(handle, { clock }) } as never));

const piece = (overrides: Record<string, string> = {}): [string, string][] =>
  Object.entries({
    intent: "save",
    name: "Indigo Patchwork Jacket",
    slug: "",
    kind: "product",
    price: "1250",
    priceText: "",
    description: "Patched from three worn-out denim jackets.",
    stock: "",
    visible: "on",
    sortOrder: "0",
    ...overrides,
  });
const withPhoto: [string, string][] = [
  ["photoSrc", "/images/products/dashiki-dress-1.svg"],
  ["photoAlt", "Indigo patchwork jacket, front view"],
];

async function save(id: number | null, fields: [string, string][]) {
  const path = id === null ? "/admin/products/new" : `/admin/products/${id}`;
  return call(productEdit.action, multipart(path, fields, await signedIn()), id === null ? {} : { id: String(id) });
}

const cards = async (query = "") => {
  const answer = await call(collections.loader, get(`/styled-collections${query}`));
  return answer.body.items as CatalogCard[];
};
const jacketCard = async () => (await cards()).find((c) => c.slug === "indigo-patchwork-jacket");
const jacketRow = async () =>
  (await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "indigo-patchwork-jacket")))[0]!;

describe("the owner marks a piece New", () => {
  let id: number;

  it("shows the badge on its card for 30 days by the app's clock, then not", async () => {
    const added = await save(null, [...piece(), ["markNew", "on"], ...withPhoto]);
    expect(added.status).toBe(302);
    const row = await jacketRow();
    id = row.id;
    expect(row.newUntil?.toISOString()).toBe(new Date(clock.now().getTime() + 30 * DAY).toISOString());
    expect(await jacketCard()).toMatchObject({ isNew: true });

    clock.set(new Date(row.newUntil!.getTime() - 60_000));
    expect(await jacketCard()).toMatchObject({ isNew: true });
    expect(
      (await call(productEdit.loader, get(`/admin/products/${id}`, await signedIn()), { id: String(id) })).body.values,
    ).toMatchObject({ markNew: true });

    clock.set(row.newUntil!);
    expect(await jacketCard()).toMatchObject({ isNew: false });
    expect(
      (await call(productEdit.loader, get(`/admin/products/${id}`, await signedIn()), { id: String(id) })).body.values,
    ).toMatchObject({ markNew: false });
  });

  it("a later save with New still ticked keeps the end date; unticked ends it; ticked again starts 30 new days", async () => {
    clock.set("2026-12-01T09:00:00+02:00");
    await save(id, [...piece(), ...withPhoto]);
    expect((await jacketRow()).newUntil).toBeNull();
    await save(id, [...piece(), ["markNew", "on"], ...withPhoto]);
    const first = (await jacketRow()).newUntil!;
    expect(first.toISOString()).toBe(new Date(Date.parse("2026-12-01T09:00:00+02:00") + 30 * DAY).toISOString());
    expect(await jacketCard()).toMatchObject({ isNew: true });

    clock.set("2026-12-05T09:00:00+02:00");
    await save(id, [
      ...piece({ description: "Patched from three worn-out denim jackets. Lined." }),
      ["markNew", "on"],
      ...withPhoto,
    ]);
    expect((await jacketRow()).newUntil).toEqual(first);

    await save(id, [...piece(), ...withPhoto]);
    expect((await jacketRow()).newUntil).toBeNull();
    expect(await jacketCard()).toMatchObject({ isNew: false });
    await save(id, [...piece(), ["markNew", "on"], ...withPhoto]);
  });

  it("is not new without the tick", async () => {
    await save(null, [...piece({ name: "Plain Linen Scarf", price: "180" }), ...withPhoto]);
    const [row] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "plain-linen-scarf"));
    expect(row!.newUntil).toBeNull();
  });
});

describe("/styled-collections sorts", () => {
  const prices = (list: CatalogCard[]) => list.filter((c) => c.priceCents !== null).map((c) => c.priceCents!);

  it("by price, highest first, unless asked otherwise (the spec's order)", async () => {
    const list = await cards();
    expect(prices(list)).toEqual([...prices(list)].sort((a, b) => b - a));
    expect(await cards("?sort=price-desc")).toEqual(list);
    expect((await call(collections.loader, get("/styled-collections"))).body.sort).toBe("price-desc");
  });

  it("by price, lowest first, with pieces priced on request still last", async () => {
    const list = await cards("?sort=price-asc");
    expect(prices(list)).toEqual([...prices(list)].sort((a, b) => a - b));
    const firstOnRequest = list.findIndex((c) => c.priceCents === null);
    if (firstOnRequest >= 0) expect(list.slice(firstOnRequest).every((c) => c.priceCents === null)).toBe(true);
  });

  it("newest first: the piece marked New last comes first, then pieces by when they were added", async () => {
    clock.set("2026-12-10T09:00:00+02:00");
    const scarf = (await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "plain-linen-scarf")))[0]!;
    await save(scarf.id, [...piece({ name: "Plain Linen Scarf", price: "180" }), ["markNew", "on"], ...withPhoto]);
    const list = await cards("?sort=newest");
    expect(list[0]).toMatchObject({ slug: "plain-linen-scarf", isNew: true });
    // The jacket was added after the seeded catalog, so it comes next.
    expect(list[1]?.slug).toBe("indigo-patchwork-jacket");
    expect(new Set(list.map((c) => c.slug))).toEqual(new Set((await cards()).map((c) => c.slug)));
  });

  it("an unknown sort leads to the page itself, so the page cache holds no copies under junk addresses", async () => {
    for (const junk of ["?sort=", "?sort=cheapest", "?sort=newest%00"]) {
      const answer = await call(collections.loader, get(`/styled-collections${junk}`));
      expect(answer.status).toBe(302);
      expect(answer.location).toBe("/styled-collections");
    }
  });
});

describe("alt text messages", () => {
  it("two photos without alt text are two fields needing attention, each message by its photo and none repeated", async () => {
    const answer = await save(null, [
      ...piece({ name: "Alt Text Test" }),
      ["photoSrc", "/images/products/dashiki-dress-1.svg"],
      ["photoAlt", ""],
      ["photoSrc", "/images/products/dashiki-dress-2.svg"],
      ["photoAlt", " "],
    ]);
    expect(answer.status).toBe(400);
    const errors = answer.body.fieldErrors as Record<string, string>;
    expect(errors["photos.0.alt"]).toBe("Alt text is required");
    expect(errors["photos.1.alt"]).toBe("Alt text is required");
    expect(fieldsWithErrors(errors)).toBe(2);
    expect(photoPickerErrors(errors, [0, 1])).toEqual({
      error: undefined,
      fieldErrors: ["Alt text is required", "Alt text is required"],
    });
    expect(await handle.db.select().from(catalogItems).where(eq(catalogItems.name, "Alt Text Test"))).toEqual([]);
  });
});
