import { asc } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, catalogItems, catalogSlugRedirects } from "~/db/schema";
import * as productEdit from "~/routes/admin/product-edit";
import { countRows, hostileStrings, RUNS } from "../support/generated";
import { createTestDatabase, testContext } from "../support/test-db";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";

// Generated input to the owner's product form: never a server error; a refused input (4xx) changes
// nothing at all; an accepted one stores exactly what was sent.
const BASE = "http://localhost:3000";
let handle: DatabaseHandle;
let cookie: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  cookie = await signedInOwner(handle);
});
afterAll(() => handle?.close());

async function post(path: string, params: Record<string, string>, fields: [string, string][]) {
  const body = new FormData();
  for (const [k, v] of fields) body.append(k, v);
  const request = new Request(`${BASE}${path}`, { method: "POST", body, headers: { Origin: BASE, Cookie: cookie } });
  return (await routeAnswer(() => productEdit.action({ request, params, context: testContext(handle) } as never)))
    .status;
}

/** Everything a refused input must leave as it was. */
async function snapshot() {
  return JSON.stringify({
    items: await handle.db.select().from(catalogItems).orderBy(asc(catalogItems.id)),
    redirects: await handle.db.select().from(catalogSlugRedirects).orderBy(asc(catalogSlugRedirects.oldSlug)),
    audits: await countRows(handle, adminAuditLog),
  });
}

const FIELDS = [
  "intent",
  "name",
  "slug",
  "kind",
  "price",
  "priceText",
  "description",
  "stock",
  "visible",
  "sortOrder",
  "photoSrc",
  "photoAlt",
];
const nasty = hostileStrings({
  extra: [
    "-1",
    "0",
    "1e9",
    "999999999999",
    "R 1,000.00",
    "product",
    "service",
    "delete",
    "on",
    "/images/x.svg",
    "/media/0123456789abcdef0123.webp",
  ],
});
const anyFields = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), nasty), {
  maxLength: 14,
});
// Ids that name no product (or are not ids at all), for the edit route.
const badIds = fc.oneof(
  fc.constantFrom("0", "-1", "99999999", "1.5", "abc", "1e3", "", "%00"),
  fc.string({ maxLength: 12 }),
);

describe("the product form under generated input", () => {
  it(`a new product: never a 5xx, and a refused input changes nothing (${RUNS} inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(anyFields, async (fields) => {
        const before = await snapshot();
        const status = await post("/admin/products/new", {}, fields);
        expect(status).toBeLessThan(500);
        if (status >= 400) expect(await snapshot()).toBe(before);
        else expect(status).toBe(302);
      }),
      { numRuns: RUNS },
    );
  }, 600_000);

  it(`an unknown or malformed product id: 4xx and nothing changes (${Math.ceil(RUNS / 4)} inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(badIds, anyFields, async (id, fields) => {
        const before = await snapshot();
        const status = await post(`/admin/products/${encodeURIComponent(id)}`, { id }, fields);
        expect(status).toBeGreaterThanOrEqual(400);
        expect(status).toBeLessThan(500);
        expect(await snapshot()).toBe(before);
      }),
      { numRuns: Math.ceil(RUNS / 4) },
    );
  }, 600_000);

  it(`an existing product: a refused edit leaves it exactly as it was (${Math.ceil(RUNS / 2)} inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        anyFields.filter((f) => !f.some(([k, v]) => k === "intent" && v === "delete")),
        async (fields) => {
          const before = await snapshot();
          const status = await post("/admin/products/2", { id: "2" }, fields);
          expect(status).toBeLessThan(500);
          if (status >= 400) expect(await snapshot()).toBe(before);
        },
      ),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  }, 600_000);

  it(`valid products are stored exactly as sent (${Math.ceil(RUNS / 10)} inputs)`, async () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,30}[A-Za-z0-9]$/);
    await fc.assert(
      fc.asyncProperty(
        word,
        fc.integer({ min: 100, max: 9_999_999 }),
        fc.option(fc.integer({ min: 0, max: 500 }), { nil: null }),
        fc.boolean(),
        async (name, cents, stock, visible) => {
          const unique = `${name} ${Math.random().toString(36).slice(2, 8)}`;
          const fields: [string, string][] = [
            ["name", unique],
            ["kind", "product"],
            ["price", (cents / 100).toFixed(2)],
            ["description", `About ${unique}`],
            ["stock", stock === null ? "" : String(stock)],
            ["photoSrc", "/images/products/candy-earrings-1.svg"],
            ["photoAlt", `${unique} on a Honey`],
            ...(visible ? ([["visible", "on"]] as [string, string][]) : []),
          ];
          expect(await post("/admin/products/new", {}, fields)).toBe(302);
          const rows = await handle.db.select().from(catalogItems);
          const row = rows.find((r) => r.name === unique.trim().replace(/\s+$/, ""));
          expect(row).toMatchObject({
            priceCents: cents,
            stockQuantity: stock,
            visible,
            images: ["/images/products/candy-earrings-1.svg"],
            imageAlts: [`${unique} on a Honey`],
          });
        },
      ),
      { numRuns: Math.ceil(RUNS / 10) },
    );
  }, 600_000);
});
