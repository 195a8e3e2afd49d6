import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { bagLines, bags, catalogItems, stockHolds, orders } from "~/db/schema";
import { MAX_BAG_LINES } from "~/bag/bag-limits";
import { bagBrowser } from "../support/bag";
import { countRows, hostileStrings } from "../support/generated";
import { createTestDatabase } from "../support/test-db";

// Generated input for /bag: a form that is not one of the bag's own (bad quantities, unknown items and
// lines, other intents) gets a 4xx and changes nothing; a bag never holds more than 10 of a line, more
// than is left, or more than 20 lines.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

// The property adds and posts through one database, so fewer runs than the pure properties.
const RUNS = Math.min(Number(process.env.PROPERTY_RUNS ?? 150), 150);

async function lines() {
  return handle.db.select().from(bagLines).orderBy(bagLines.id);
}

describe("/bag, generated input", () => {
  it("refuses every malformed or impossible form with a 4xx and changes nothing", async () => {
    const [earrings] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "candy-earrings"));
    const browser = bagBrowser(handle);
    await browser.post({ intent: "add", kind: "catalog", id: String(earrings!.id), quantity: "2" });
    const [line] = await lines();
    const nasty = hostileStrings({ extra: ["0", "-1", "11", "1.5", "1e3", "99999999999", " 3", "٣"], hugeUpTo: 2_000 });
    const form = fc.record(
      {
        intent: fc.oneof(fc.constantFrom("add", "set", "remove", "checkout", ""), nasty),
        kind: fc.oneof(fc.constantFrom("catalog", "ticket", "membership"), nasty),
        id: fc.oneof(fc.constantFrom(String(earrings!.id), "999999", "0", "-5"), nasty),
        line: fc.oneof(fc.constantFrom(String(line!.id), String(line!.id + 1000), "0"), nasty),
        quantity: fc.oneof(fc.constantFrom("0", "11", "-1", "2.5", "100", ""), nasty),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(form, async (fields) => {
        // A form the bag's own pages could send is not what this property is about.
        const goodQuantity = /^[0-9]{1,3}$/.test(fields.quantity?.trim() ?? "") && Number(fields.quantity) >= 1;
        const ownLine = fields.line === String(line!.id);
        fc.pre(!(fields.intent === "remove" && ownLine));
        fc.pre(!(fields.intent === "set" && ownLine && goodQuantity));
        fc.pre(!(fields.intent === "add" && goodQuantity && fields.id === String(earrings!.id)));
        const before = await lines();
        const answer = await browser.post(fields as Record<string, string>);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        expect(answer.body.ok).toBe(false);
        expect(await lines()).toEqual(before);
      }),
      { numRuns: RUNS },
    );
    expect(await countRows(handle, orders)).toBe(0);
    expect(await countRows(handle, stockHolds)).toBe(0);
  });

  it("keeps any sequence of adds within 10 a line and what is left, one line per item", async () => {
    const [earrings] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "candy-earrings"));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 6 }), async (adds) => {
        const browser = bagBrowser(handle);
        let expected = 0;
        for (const quantity of adds) {
          const answer = await browser.post({
            intent: "add",
            kind: "catalog",
            id: String(earrings!.id),
            quantity: String(quantity),
          });
          // Ten earrings are in stock: an add that would pass ten is refused and changes nothing.
          if (expected + quantity <= 10) {
            expect(answer.status).toBe(302);
            expected += quantity;
          } else expect(answer.status).toBe(409);
        }
        const view = await browser.view();
        expect(view.body.lines).toHaveLength(1);
        expect(view.body.lines[0].quantity).toBe(expected);
      }),
      { numRuns: 25 },
    );
  });

  it("holds at most 20 different things in one bag", async () => {
    const items = await handle.db
      .insert(catalogItems)
      .values(
        Array.from({ length: MAX_BAG_LINES + 1 }, (_, i) => ({
          slug: `bag-piece-${i}`,
          name: `Bag Piece ${i}`,
          kind: "product" as const,
          priceCents: 1000 + i,
          priceText: "R 10.00",
          description: "A piece.",
        })),
      )
      .returning();
    const browser = bagBrowser(handle);
    for (const item of items.slice(0, MAX_BAG_LINES))
      expect((await browser.post({ intent: "add", kind: "catalog", id: String(item.id), quantity: "1" })).status).toBe(
        302,
      );
    const refused = await browser.post({ intent: "add", kind: "catalog", id: String(items.at(-1)!.id), quantity: "1" });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("A bag holds at most 20 different things.");
    expect((await browser.view()).body.lines).toHaveLength(MAX_BAG_LINES);
    expect(await countRows(handle, bags)).toBeGreaterThan(0);
  });
});
