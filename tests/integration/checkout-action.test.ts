import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { analyticsEvents, catalogItems, orderLines, orders, stockHolds } from "~/db/schema";
import { PaymentProviderError, type PaymentProvider } from "~/payments/provider";
import { action, loader } from "~/routes/checkout";
import { createTestDatabase, testContext } from "../support/test-db";
import { buyer, checkout, checkoutRequest, orderIdFrom } from "../support/checkout";

let handle: DatabaseHandle;
afterAll(() => handle?.close());
async function freshDatabase() {
  await handle?.close();
  handle = await createTestDatabase();
}

async function load(query: string) {
  const request = new Request(`http://localhost/checkout${query}`);
  /* eslint-disable @typescript-eslint/no-explicit-any */
  return (await loader({ request, context: testContext(handle), params: {} } as any)) as any;
  /* eslint-enable @typescript-eslint/no-explicit-any */
}

describe("checkout loader: the server prices and vets the item", () => {
  beforeAll(freshDatabase);
  it("ignores the price in the query and shows the catalog price", async () => {
    const page = await load("?type=product&item=Candy%20Earrings&price=R1");
    expect(page.offer).toMatchObject({
      kind: "sellable",
      item: { name: "Candy Earrings", amountCents: 35000, orderType: "product" },
    });
  });

  it("with no parameters shows the default Checkout summary of R 200.00 without a form", async () => {
    const page = await load("");
    expect(page.offer).toEqual({
      kind: "default",
      item: { name: "Checkout", description: null, amountCents: 20000, orderType: null },
    });
  });

  it.each([
    ["?type=product&item=Nothing%20Here", "We could not find that item."],
    ["?type=product&item=Choker%20Necklaces", "Choker Necklaces is sold out."],
    ["?type=product&item=Capsule%20Reset&price=R0", null],
    ["?type=membership&item=upcycle-kings-queens", "priced on request"],
    [
      "?type=ticket&item=Sip%20%26%20Style%20at%20Nanas%20-%20Normal%20Price",
      "not on sale yet: Available from 15 September",
    ],
    [
      "?type=ticket&item=Radiance%20Reset%20%26%20Sustainable%20Style%20Workshop%20-%20Workshop%20Ticket",
      "already taken place",
    ],
    ["?type=bogus&item=Candy%20Earrings", "We could not find that item."],
  ])("%s", async (query, reason) => {
    const page = await load(query);
    if (reason === null) {
      expect(page.offer.kind).toBe("sellable");
    } else {
      expect(page.offer.kind).toBe("unavailable");
      expect(page.offer.reason).toContain(reason);
    }
  });

  it("knows memberships by slug, tickets by event and option, and the workshop by title", async () => {
    expect((await load("?type=membership&item=glow-bee-journey&price=R1")).offer.item).toMatchObject({
      amountCents: 45000,
      orderType: "membership",
    });
    expect(
      (await load("?type=ticket&item=Sip%20%26%20Style%20at%20Nanas%20-%20Early%20Bird")).offer.item,
    ).toMatchObject({
      amountCents: 35000,
      orderType: "ticket",
    });
    expect(
      (await load("?type=workshop&item=Transform%20Tablecloth%20into%20Wrap%20Around%20Skirt&price=R250")).offer.item,
    ).toMatchObject({
      amountCents: 25000,
      orderType: "workshop",
    });
    expect((await load("?type=product&item=Test%20Product&price=R5")).offer.item).toMatchObject({ amountCents: 500 });
    // Services come through the product page too, but ship nothing.
    expect((await load("?type=product&item=Fashion%20Consultation&price=R1")).offer.item).toMatchObject({
      amountCents: 85000,
      orderType: "service",
    });
  });
});

describe("a post for something that cannot be sold, drawn as the checkout page", () => {
  beforeAll(freshDatabase);

  /** The request's context as React Router hands it to the action and then the loader, counting lookups. */
  function countedContext() {
    const context = testContext(handle);
    const counter = { selects: 0 };
    const db = new Proxy(context.db, {
      get(target, property, receiver) {
        if (property === "select") counter.selects++;
        return Reflect.get(target, property, receiver);
      },
    });
    return { context: { ...context, db }, counter };
  }

  /** The reads of one lookup of a sold-out product (its row, then the units held). */
  async function readsPerLookup() {
    const { context, counter } = countedContext();
    /* eslint-disable @typescript-eslint/no-explicit-any */
    await loader({ request: checkoutRequest("product", "Choker Necklaces"), context, params: {} } as any);
    /* eslint-enable @typescript-eslint/no-explicit-any */
    return counter.selects;
  }

  it("is looked up once: the page drawn after the action in the same request shows the action's refusal", async () => {
    const perLookup = await readsPerLookup();
    expect(perLookup).toBeGreaterThan(0);
    const { context, counter } = countedContext();
    const request = checkoutRequest("product", "Choker Necklaces");
    /* eslint-disable @typescript-eslint/no-explicit-any */
    const refused = (await action({ request, context, params: {} } as any)) as any;
    /* eslint-enable @typescript-eslint/no-explicit-any */
    expect(refused.init.status).toBe(400);
    expect(refused.data.toast).toMatchObject({ title: "Checkout Error", description: "Choker Necklaces is sold out." });
    expect(counter.selects).toBe(perLookup);

    /* eslint-disable @typescript-eslint/no-explicit-any */
    const page = (await loader({ request, context, params: {} } as any)) as any;
    /* eslint-enable @typescript-eslint/no-explicit-any */
    expect(page.offer).toEqual({ kind: "unavailable", reason: "Choker Necklaces is sold out." });
    expect(counter.selects).toBe(perLookup);
  });

  it("is looked up again by another request, and by a page asking for another item", async () => {
    const perLookup = await readsPerLookup();
    const { context, counter } = countedContext();
    /* eslint-disable @typescript-eslint/no-explicit-any */
    await action({ request: checkoutRequest("product", "Choker Necklaces"), context, params: {} } as any);
    /* eslint-enable @typescript-eslint/no-explicit-any */
    /* eslint-disable @typescript-eslint/no-explicit-any */
    const other = (await loader({
      request: checkoutRequest("product", "Candy Earrings"),
      context,
      params: {},
    } as any)) as any;
    /* eslint-enable @typescript-eslint/no-explicit-any */
    expect(other.offer).toMatchObject({ kind: "sellable", item: { name: "Candy Earrings" } });
    expect(counter.selects).toBeGreaterThan(perLookup);

    const next = countedContext();
    /* eslint-disable @typescript-eslint/no-explicit-any */
    const fresh = (await loader({
      request: checkoutRequest("product", "Choker Necklaces"),
      context: next.context,
      params: {},
    } as any)) as any;
    /* eslint-enable @typescript-eslint/no-explicit-any */
    expect(fresh.offer).toEqual({ kind: "unavailable", reason: "Choker Necklaces is sold out." });
    expect(next.counter.selects).toBe(perLookup);
  });

  it("after a lookup that found the item on sale, the page looks again: the order may have found it gone", async () => {
    const { context, counter } = countedContext();
    const request = checkoutRequest("product", "Candy Earrings", { ...buyer, email: "not-an-email" });
    /* eslint-disable @typescript-eslint/no-explicit-any */
    await action({ request, context, params: {} } as any);
    /* eslint-enable @typescript-eslint/no-explicit-any */
    const before = counter.selects;
    /* eslint-disable @typescript-eslint/no-explicit-any */
    await loader({ request, context, params: {} } as any);
    /* eslint-enable @typescript-eslint/no-explicit-any */
    expect(counter.selects).toBeGreaterThan(before);
  });
});

describe("checkout action", () => {
  beforeEach(freshDatabase);

  it("records checkout_created_success for the buyer's analytics session", async () => {
    orderIdFrom(
      await checkout(handle, "product", "Test Product", { fields: { ...buyer, sessionId: "sess-abcdef12" } }),
    );
    const events = await handle.db.select().from(analyticsEvents);
    expect(events).toMatchObject([
      {
        eventType: "checkout_created_success",
        sessionId: "sess-abcdef12",
        itemName: "Test Product",
        metadata: { amount: 500 },
      },
    ]);
  });

  it("stores a pending order with its line and hold before the provider is called, then redirects", async () => {
    let seenBeforeCreate: unknown[] = [];
    const provider: PaymentProvider = {
      name: "simulator",
      async createCheckout(request) {
        seenBeforeCreate = await handle.db.select().from(orders).where(eq(orders.id, request.orderId));
        expect(request).toMatchObject({ amountCents: 35000, currency: "ZAR", metadata: { orderId: request.orderId } });
        expect(request.successUrl).toBe(
          `http://localhost:3000/order-confirmation?status=success&orderId=${request.orderId}`,
        );
        return { checkoutId: "ch_test_1", redirectUrl: `/payments/simulator/${request.orderId}` };
      },
      getCheckout: async (checkoutId) => ({ checkoutId, status: "unknown", paymentId: null }),
      refund: async () => {
        throw new Error("no refunds in this test");
      },
    };
    const result = await checkout(handle, "product", "Candy Earrings", { provider });
    const id = orderIdFrom(result);
    expect(seenBeforeCreate).toHaveLength(1);
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, id));
    expect(order).toMatchObject({
      status: "pending",
      amountCents: 35000,
      currency: "ZAR",
      orderType: "product",
      itemName: "Candy Earrings",
      customerFirstName: buyer.firstName,
      customerEmail: buyer.email,
      customerAddress: buyer.address,
      yocoCheckoutId: "ch_test_1",
      provider: "simulator",
    });
    expect(order!.reference).toMatch(/^HB-[A-Z2-9]{8}$/);
    expect(await handle.db.select().from(orderLines).where(eq(orderLines.orderId, id))).toMatchObject([
      { displayName: "Candy Earrings", quantity: 1, unitPriceCents: 35000 },
    ]);
    const holds = await handle.db.select().from(stockHolds).where(eq(stockHolds.orderId, id));
    expect(holds).toMatchObject([{ quantity: 1, status: "held" }]);
    expect(holds[0]!.expiresAt.getTime() - new Date("2025-09-10T10:00:00+02:00").getTime()).toBe(15 * 60_000);
  });

  it("uses STOCK_HOLD_MINUTES for the hold", async () => {
    const config = { payment: { ...testContext(handle).config.payment, stockHoldMinutes: 5 } };
    const id = orderIdFrom(await checkout(handle, "product", "Candy Earrings", { config }));
    const [hold] = await handle.db.select().from(stockHolds).where(eq(stockHolds.orderId, id));
    expect(hold!.expiresAt.toISOString()).toBe("2025-09-10T08:05:00.000Z");
  });

  for (const field of ["firstName", "lastName", "email", "phone", "address"]) {
    it(`refuses a missing ${field} with "Missing Information" and stores nothing`, async () => {
      const result = await checkout(handle, "product", "Candy Earrings", { fields: { ...buyer, [field]: "   " } });
      expect(result).toMatchObject({
        ok: false,
        toast: { title: "Missing Information", description: "Please fill in all required fields" },
        values: { firstName: field === "firstName" ? "   " : buyer.firstName },
      });
      expect(await handle.db.select().from(orders)).toHaveLength(0);
    });
  }

  it("refuses a bad email with a Checkout Error that says why", async () => {
    const result = await checkout(handle, "product", "Candy Earrings", { fields: { ...buyer, email: "not-an-email" } });
    expect(result).toMatchObject({
      toast: { title: "Checkout Error", description: "Please enter a valid email address." },
    });
  });

  it("refuses NUL and control characters instead of failing in the database", async () => {
    expect(await checkout(handle, "product", "Candy\u0000Earrings")).toMatchObject({
      toast: { title: "Checkout Error", description: "We could not find that item." },
    });
    expect(
      await checkout(handle, "product", "Candy Earrings", { fields: { ...buyer, firstName: "Th\u0000andi" } }),
    ).toMatchObject({
      toast: { title: "Checkout Error", description: "First name contains characters we cannot store." },
    });
    expect((await load("?type=product&item=%00")).offer.kind).toBe("unavailable");
    expect(await handle.db.select().from(orders)).toHaveLength(0);
  });

  it("refuses an unsellable item and the default checkout", async () => {
    expect(await checkout(handle, "product", "Bucket Hats")).toMatchObject({
      toast: { title: "Checkout Error", description: "Bucket Hats is sold out." },
    });
    expect(await checkout(handle, "", "")).toMatchObject({
      toast: { title: "Checkout Error", description: "Please choose something to buy first." },
    });
    expect(await handle.db.select().from(orders)).toHaveLength(0);
  });

  it("provider down: Checkout Error with the reason, the order is failed and its hold released", async () => {
    const provider: PaymentProvider = {
      name: "yoco",
      createCheckout: async () => {
        throw new PaymentProviderError("The payment service is temporarily unavailable. Please try again.", true, 503);
      },
      getCheckout: async (checkoutId) => ({ checkoutId, status: "unknown", paymentId: null }),
      refund: async () => {
        throw new Error("no refunds in this test");
      },
    };
    const result = await checkout(handle, "product", "Candy Earrings", { provider });
    expect(result).toMatchObject({
      ok: false,
      toast: {
        title: "Checkout Error",
        description: "The payment service is temporarily unavailable. Please try again.",
      },
      values: buyer,
    });
    const [order] = await handle.db.select().from(orders);
    expect(order!.status).toBe("failed");
    expect(await handle.db.select().from(stockHolds)).toMatchObject([{ status: "released" }]);
    const [candy] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "candy-earrings"));
    expect(candy!.stockQuantity).toBe(10);
  });

  it("an unexpected exception answers Unexpected Error", async () => {
    const provider: PaymentProvider = {
      name: "simulator",
      createCheckout: async () => {
        throw new TypeError("boom");
      },
      getCheckout: async (checkoutId) => ({ checkoutId, status: "unknown", paymentId: null }),
      refund: async () => {
        throw new Error("no refunds in this test");
      },
    };
    const result = await checkout(handle, "product", "Test Product", { provider });
    expect(result).toMatchObject({
      toast: { title: "Unexpected Error", description: "Something went wrong. Please try again." },
    });
  });
});
