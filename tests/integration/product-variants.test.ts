import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listVariants, saveProductOptions, type GridRow } from "~/catalog/product-variants.server";
import type { DatabaseHandle } from "~/db/client.server";
import { catalogItems, productVariants, stockHolds } from "~/db/schema";
import { variantStockKey } from "~/stock/keys";
import { createTestDatabase } from "../support/test-db";

/** A product's options and rows (issue 44): saved under the stock locks, read with what is left of each row. */
const NOW = new Date("2026-11-27T10:00:00+02:00");
let handle: DatabaseHandle;
let hatId: number;

beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
  const [hat] = await handle.db
    .insert(catalogItems)
    .values({
      slug: "bucket-hat",
      name: "Bucket Hat",
      kind: "product",
      priceCents: 35000,
      priceText: "R 350.00",
      description: "Upcycled denim.",
      images: ["/media/hat-1.jpg", "/media/hat-2.jpg"],
      stockQuantity: 3,
    })
    .returning();
  hatId = hat.id;
});
afterAll(() => handle?.close());

const sizes = [{ name: "Size", values: ["S", "M", "L"] }];
const grid = (stock: (number | null)[], extra: Partial<GridRow>[] = []): GridRow[] =>
  ["S", "M", "L"].map((value1, i) => ({
    value1,
    value2: "",
    stockQuantity: stock[i] ?? null,
    priceCents: null,
    image: null,
    enabled: true,
    ...extra[i],
  }));

const rowsOf = async () => (await listVariants(handle.db, [hatId], NOW)).get(hatId) ?? [];

describe("a product's rows", () => {
  it("saves the options and a row per value, in the owner's order, each with its own stock", async () => {
    const saved = await saveProductOptions(handle.db, {
      itemId: hatId,
      options: sizes,
      rows: grid([2, 0, 1]),
      now: NOW,
    });
    expect(saved).toEqual({ ok: true, rows: 3 });
    const [item] = await handle.db.select().from(catalogItems).where(eq(catalogItems.id, hatId));
    expect(item.optionNames).toEqual(sizes);
    expect((await rowsOf()).map((r) => [r.value1, r.available])).toEqual([
      ["S", 2],
      ["M", 0],
      ["L", 1],
    ]);
  });

  it("counts a checkout's hold against its row only", async () => {
    const [l] = (await rowsOf()).filter((r) => r.value1 === "L");
    await handle.db
      .insert(stockHolds)
      .values({ stockKey: variantStockKey(l.id), quantity: 1, expiresAt: new Date(NOW.getTime() + 15 * 60_000) });
    expect((await rowsOf()).map((r) => [r.value1, r.available])).toEqual([
      ["S", 2],
      ["M", 0],
      ["L", 0],
    ]);
  });

  it("refuses a row's stock below what checkouts hold of it, changing nothing", async () => {
    const saved = await saveProductOptions(handle.db, {
      itemId: hatId,
      options: sizes,
      rows: grid([5, 5, 0]),
      now: NOW,
    });
    expect(saved).toMatchObject({ ok: false, error: expect.stringContaining("1 unit is held"), row: { value1: "L" } });
    expect((await rowsOf()).map((r) => r.available)).toEqual([2, 0, 0]);
  });

  it("refuses a photo that is not one of the product's, changing nothing", async () => {
    const saved = await saveProductOptions(handle.db, {
      itemId: hatId,
      options: sizes,
      rows: grid([9, 9, 9], [{ image: "/media/someone-elses.jpg" }]),
      now: NOW,
    });
    expect(saved).toMatchObject({ ok: false, error: "A row's photo must be one of the product's photos." });
    expect((await rowsOf()).map((r) => r.image)).toEqual([null, null, null]);
  });

  it("keeps a removed row that a hold names, switched off, and deletes one nothing names", async () => {
    const saved = await saveProductOptions(handle.db, {
      itemId: hatId,
      options: [{ name: "Size", values: ["S"] }],
      rows: grid([4])
        .slice(0, 1)
        .map((r) => ({ ...r, image: "/media/hat-2.jpg" })),
      now: NOW,
    });
    expect(saved).toEqual({ ok: true, rows: 1 });
    const rows = await handle.db.select().from(productVariants).where(eq(productVariants.catalogItemId, hatId));
    expect(rows.map((r) => [r.value1, r.enabled, r.stockQuantity, r.image]).sort()).toEqual([
      ["L", false, 1, null],
      ["S", true, 4, "/media/hat-2.jpg"],
    ]);
  });

  it("answers for a product that no longer exists without writing anything", async () => {
    expect(
      await saveProductOptions(handle.db, { itemId: 999_999, options: sizes, rows: grid([1, 1, 1]), now: NOW }),
    ).toEqual({
      ok: false,
      error: "This product no longer exists.",
    });
  });
});
