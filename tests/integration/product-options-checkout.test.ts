import { randomUUID } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listCollectionCards } from "~/catalog/items.server";
import { soldByOption } from "~/catalog/option-sales.server";
import type { DatabaseHandle } from "~/db/client.server";
import { bagLines, catalogItems, orderLines, orders, productVariants, stockHolds } from "~/db/schema";
import { submitCheckout } from "~/orders/checkout-action.server";
import { recordPayment } from "~/orders/payment-events.server";
import { createSimulatorProvider } from "~/payments/simulator.server";
import * as optionsPage from "~/routes/admin/product-options";
import * as productPage from "~/routes/product";
import { requestRefund } from "~/orders/refunds.server";
import { fixedClock } from "~/lib/clock";
import { bagBrowser } from "../support/bag";
import { buyer, orderIdFrom } from "../support/checkout";
import { routeAnswer } from "../support/route-answer";
import { createTestDatabase, testContext } from "../support/test-db";

/** A product with sizes (issue 44): the owner's grid, the page, the card, Order Now, the bag, a sale and a return. */
const NOW = new Date("2026-11-27T10:00:00+02:00");
const mail = {
  siteUrl: "http://localhost:3000",
  ownerEmail: "owner@example.test",
  secret: "test-secret-test-secret-test-secret",
};
let handle: DatabaseHandle;
let hatId: number;
let ips = 0;

beforeAll(async () => {
  handle = await createTestDatabase();
  const [hat] = await handle.db
    .insert(catalogItems)
    .values({
      slug: "upcycled-bucket-hat",
      name: "Upcycled Bucket Hat",
      kind: "product",
      priceCents: 35000,
      priceText: "R 350.00",
      description: "Denim offcuts, lined with shweshwe.",
      images: ["/media/hat-front.jpg", "/media/hat-l.jpg"],
      stockQuantity: 2,
    })
    .returning();
  hatId = hat.id;
});
afterAll(() => handle?.close());

const context = () => testContext(handle, { clientIp: `10.44.0.${++ips}` });

async function postOptions(fields: [string, string][]) {
  const body = new URLSearchParams(fields);
  const request = new Request(`http://localhost/admin/products/${hatId}/options`, { method: "POST", body });
  return routeAnswer(() => optionsPage.action({ request, params: { id: String(hatId) }, context: context() } as never));
}

async function rows() {
  return handle.db
    .select()
    .from(productVariants)
    .where(eq(productVariants.catalogItemId, hatId))
    .orderBy(productVariants.position);
}

async function card() {
  return (await listCollectionCards(handle.db, NOW)).find((c) => c.slug === "upcycled-bucket-hat")!;
}

function orderNow(query: Record<string, string>) {
  const url = `http://localhost/checkout?${new URLSearchParams({ type: "product", item: "Upcycled Bucket Hat", price: "R350", ...query })}`;
  const request = new Request(url, { method: "POST", body: new URLSearchParams(buyer) });
  return submitCheckout(request, context(), createSimulatorProvider());
}

const orderCount = async () => (await handle.db.select({ n: count() }).from(orders))[0]!.n;

describe(`a product with sizes (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("the owner's first save makes a row per size; the product's stock becomes the first row's", async () => {
    const saved = await postOptions([
      ["name1", "Size"],
      ["values1", "S, M, L"],
    ]);
    expect(saved.status).toBe(302);
    expect((await rows()).map((r) => [r.value1, r.stockQuantity, r.enabled])).toEqual([
      ["S", 2, true],
      ["M", 0, true],
      ["L", 0, true],
    ]);
  });

  it("refuses a bad grid with a message per field and saves nothing", async () => {
    const refused = await postOptions([
      ["name1", "Size"],
      ["values1", "S, M, L"],
      ["hadGrid", "1"],
      ...(["S", "M", "L"].flatMap((v, i) => [
        ["rowValue1", v],
        ["rowValue2", ""],
        ["rowStock", ["2", "-1", "x"][i]!],
        ["rowPrice", ["", "3,50,0", ""][i]!],
        ["rowPhoto", ""],
        ["rowOn", String(i)],
      ]) as [string, string][]),
    ]);
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.fieldErrors).sort()).toEqual(["row-1-price", "row-1-stock", "row-2-stock"]);
    expect((await rows()).map((r) => r.stockQuantity)).toEqual([2, 0, 0]);
  });

  it("saves the grid: stock 2/0/1, L with its own photo; the card shows 3 LIMITED STOCK!", async () => {
    const saved = await postOptions([
      ["name1", "Size"],
      ["values1", "S, M, L"],
      ["hadGrid", "1"],
      ...(["S", "M", "L"].flatMap((v, i) => [
        ["rowValue1", v],
        ["rowValue2", ""],
        ["rowStock", ["2", "0", "1"][i]!],
        ["rowPrice", ""],
        ["rowPhoto", i === 2 ? "/media/hat-l.jpg" : ""],
        ["rowOn", String(i)],
      ]) as [string, string][]),
    ]);
    expect(saved.status).toBe(302);
    expect(await card()).toMatchObject({ priceText: "R 350.00", soldOut: false, limitedStock: 3 });
    const page = await routeAnswer(() =>
      productPage.loader({
        request: new Request("http://localhost/product/upcycled-bucket-hat?option1=L"),
        params: { slug: "upcycled-bucket-hat" },
        context: context(),
      } as never),
    );
    expect(page.body.product.options).toEqual([{ name: "Size", values: ["S", "M", "L"] }]);
    expect(page.body.product.initial).toEqual({ option1: "L", option2: "" });
    expect(page.body.product.rows.map((r: { value1: string; available: number }) => [r.value1, r.available])).toEqual([
      ["S", 2],
      ["M", 0],
      ["L", 1],
    ]);
    expect(page.body.product.rows[0]).not.toHaveProperty("stockQuantity");
  });

  it("Order Now never guesses: no size, a sold-out size or an unknown one is refused and stores nothing", async () => {
    const before = await orderCount();
    const cases: [Record<string, string>, string][] = [
      [{}, "Please choose a Size for Upcycled Bucket Hat."],
      [{ option1: "M" }, "Upcycled Bucket Hat — Size M is sold out."],
      [{ option1: "XXL" }, "That choice of Upcycled Bucket Hat is not sold. Please choose again."],
    ];
    for (const [query, reason] of cases) {
      const result = await orderNow(query);
      expect(result).toMatchObject({ ok: false, toast: { description: reason } });
    }
    expect(await orderCount()).toBe(before);
  });

  it("a buyer picks L and pays: L's stock drops to 0, S stays 2, the card says 2 LIMITED STOCK!", async () => {
    const orderId = orderIdFrom(await orderNow({ option1: "L" }));
    const [line] = await handle.db.select().from(orderLines).where(eq(orderLines.orderId, orderId));
    const [s, , l] = await rows();
    expect(line).toMatchObject({
      displayName: "Upcycled Bucket Hat — Size L",
      variantId: l!.id,
      unitPriceCents: 35000,
    });
    const [hold] = await handle.db.select().from(stockHolds).where(eq(stockHolds.orderId, orderId));
    expect(hold!.stockKey).toBe(`variant:${l!.id}`);
    const paid = await recordPayment(handle.db, {
      event: { eventId: "msg_hat_l", provider: "simulator", eventType: "payment.succeeded", payload: {} },
      orderId,
      paymentId: "p_hat_l",
      amountCents: 35000,
      now: NOW,
      mail,
    });
    expect(paid.outcome).toBe("paid");
    expect((await rows()).map((r) => r.stockQuantity)).toEqual([2, 0, 0]);
    expect(s!.stockQuantity).toBe(2);
    expect(await card()).toMatchObject({ soldOut: false, limitedStock: 2 });
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order!.itemName).toBe("Upcycled Bucket Hat — Size L");

    // The dashboard says what sold by size; an unpaid checkout of another size is not counted.
    expect(await soldByOption(handle.db, null)).toEqual([
      { product: "Upcycled Bucket Hat", rows: [{ label: "Size L", sold: 1 }] },
    ]);
    expect(await soldByOption(handle.db, new Date(NOW.getTime() + 60_000))).toEqual([]);

    // The owner refunds the line with return to sale: the unit goes back to the row it came from.
    const refunded = await requestRefund(
      testContext(handle, { clock: fixedClock(NOW) }),
      {
        orderId,
        amountCents: 0,
        restock: true,
        key: randomUUID(),
        line: { orderLineId: line!.id, units: 1, ticketIds: [] },
      },
      createSimulatorProvider(),
    );
    expect(refunded).toMatchObject({ ok: true, state: "succeeded" });
    expect((await rows()).map((r) => r.stockQuantity)).toEqual([2, 0, 1]);
  });

  it("the bag keeps a line per size, names it, and refuses a missing or sold-out size", async () => {
    const browser = bagBrowser(handle, { clientIp: "10.44.1.1" });
    const missing = await browser.post({ intent: "add", kind: "catalog", id: String(hatId), quantity: "1" });
    expect(missing.status).toBe(409);
    expect(missing.body.message).toBe("Please choose a Size for Upcycled Bucket Hat.");
    const soldOut = await browser.post({
      intent: "add",
      kind: "catalog",
      id: String(hatId),
      quantity: "1",
      option1: "M",
    });
    expect(soldOut.status).toBe(409);
    await browser.post({ intent: "add", kind: "catalog", id: String(hatId), quantity: "2", option1: "S" });
    await browser.post({ intent: "add", kind: "catalog", id: String(hatId), quantity: "1", option1: "L" });
    const view = await browser.view();
    expect(
      view.body.lines.map((l: { name: string; option: string; quantity: number }) => [l.name, l.option, l.quantity]),
    ).toEqual([
      ["Upcycled Bucket Hat", "Size S", 2],
      ["Upcycled Bucket Hat", "Size L", 1],
    ]);
    const [, , l] = await rows();
    expect(view.body.lines[1].photo).toEqual({ src: "/media/hat-l.jpg", alt: "Upcycled Bucket Hat" });
    const tooMany = await browser.post({
      intent: "add",
      kind: "catalog",
      id: String(hatId),
      quantity: "1",
      option1: "L",
    });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.message).toMatch(/Size L: at most 1 can go in your bag/);

    // A row the owner takes away while it sits in a bag is switched off and kept, marked in the bag, never removed.
    await postOptions([
      ["name1", "Size"],
      ["values1", "S, M"],
      ["hadGrid", "1"],
      ...(["S", "M"].flatMap((v, i) => [
        ["rowValue1", v],
        ["rowValue2", ""],
        ["rowStock", ["2", "0"][i]!],
        ["rowPrice", ""],
        ["rowPhoto", ""],
        ["rowOn", String(i)],
      ]) as [string, string][]),
    ]);
    const [kept] = await handle.db.select().from(productVariants).where(eq(productVariants.id, l!.id));
    expect(kept!.enabled).toBe(false);
    expect(await handle.db.select().from(bagLines).where(eq(bagLines.variantId, l!.id))).toHaveLength(1);
    const after = await browser.view();
    expect(after.body.lines[1]).toMatchObject({ option: "Size L", problem: expect.stringContaining("not sold") });
  });

  it("refuses random bad choices with a 4xx and changes nothing", async () => {
    const before = await handle.db.select().from(bagLines);
    const browser = bagBrowser(handle, { clientIp: "10.44.2.1" });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 120 }), fc.constantFrom("M", "L", "s", " S\u0000", "x".repeat(101))),
        fc.integer({ min: 1, max: 10 }),
        async (option1, quantity) => {
          fc.pre(option1 !== "S" && option1.trim() !== "S");
          const answer = await browser.post({
            intent: "add",
            kind: "catalog",
            id: String(hatId),
            quantity: String(quantity),
            option1,
          });
          expect(answer.status).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
        },
      ),
      { numRuns: 40 },
    );
    expect(await handle.db.select().from(bagLines)).toEqual(before);
  });

  it("five buyers for the last unit of one size, at once: exactly one gets it", async () => {
    await handle.db
      .update(productVariants)
      .set({ stockQuantity: 1 })
      .where(and(eq(productVariants.catalogItemId, hatId), eq(productVariants.value1, "M")));
    const results = await Promise.all(Array.from({ length: 5 }, () => orderNow({ option1: "M" })));
    const won = results.filter((r) => r instanceof Response);
    expect(won).toHaveLength(1);
    for (const lost of results.filter((r) => !(r instanceof Response)))
      expect(lost).toMatchObject({ toast: { description: "Upcycled Bucket Hat — Size M is sold out." } });
    const [m] = (await rows()).filter((r) => r.value1 === "M");
    const held = await handle.db
      .select()
      .from(stockHolds)
      .where(eq(stockHolds.stockKey, `variant:${m!.id}`));
    expect(held.filter((h) => h.status === "held").reduce((n, h) => n + h.quantity, 0)).toBe(1);
  });
});
