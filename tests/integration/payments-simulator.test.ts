import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { catalogItems, emailOutbox, orders, stockHolds } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { sweepPendingOrders } from "~/orders/reconcile.server";
import { createSimulatorProvider } from "~/payments/simulator.server";
import { loader as confirmationLoader } from "~/routes/order-confirmation";
import { action as simulatorAction, loader as simulatorLoader } from "~/routes/payments-simulator";
import { createTestDatabase, testContext } from "../support/test-db";
import { checkout, orderIdFrom } from "../support/checkout";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

/* eslint-disable @typescript-eslint/no-explicit-any */
async function press(orderId: string, intent: string, config = {}) {
  const request = new Request(`http://localhost/payments/simulator/${orderId}`, {
    method: "POST",
    body: new URLSearchParams({ intent }),
  });
  return (await simulatorAction({
    request,
    params: { orderId },
    context: testContext(handle, { config }),
  } as any)) as any;
}

async function confirmation(query: string) {
  const request = new Request(`http://localhost/order-confirmation${query}`);
  return (await confirmationLoader({ request, params: {}, context: testContext(handle) } as any)) as any;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

const candyStock = async () =>
  (await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "candy-earrings")))[0]!.stockQuantity;
const orderOf = async (id: string) => (await handle.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const holdOf = async (id: string) => (await handle.db.select().from(stockHolds).where(eq(stockHolds.orderId, id)))[0]!;

describe("payment simulator", () => {
  it("Pay delivers a signed payment.succeeded through the webhook code and redirects like Yoco", async () => {
    const id = orderIdFrom(await checkout(handle, "product", "Candy Earrings"));
    const res = await press(id, "pay");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/order-confirmation?status=success&orderId=${id}`);
    expect(await orderOf(id)).toMatchObject({ status: "paid" });
    expect((await orderOf(id)).providerPaymentId).toMatch(/^p_sim_/);
    expect(await candyStock()).toBe(9);
    const emails = await handle.db.select().from(emailOutbox);
    expect(emails.map((e) => e.dedupeKey).sort()).toEqual([`order-confirmation:${id}`, `order-owner-notice:${id}`]);
    const page = await confirmation(`?status=success&orderId=${id}`);
    expect(page).toMatchObject({ state: "success", reference: (await orderOf(id)).reference, fromOrder: true });
    // Pressing Pay again (back button) charges nothing twice.
    await press(id, "pay");
    expect(await candyStock()).toBe(9);
  });

  it("Decline fails the order and releases the hold; Cancel cancels it", async () => {
    const declined = orderIdFrom(await checkout(handle, "product", "Candy Earrings"));
    const res = await press(declined, "decline");
    expect(res.headers.get("Location")).toBe(`/order-confirmation?status=failed&orderId=${declined}`);
    expect((await orderOf(declined)).status).toBe("failed");
    expect((await holdOf(declined)).status).toBe("released");
    expect((await confirmation(`?status=failed&orderId=${declined}`)).state).toBe("failed");

    const cancelled = orderIdFrom(await checkout(handle, "product", "Candy Earrings"));
    expect((await press(cancelled, "cancel")).headers.get("Location")).toBe(
      `/order-confirmation?status=cancelled&orderId=${cancelled}`,
    );
    expect((await orderOf(cancelled)).status).toBe("cancelled");
    expect((await holdOf(cancelled)).status).toBe("released");
    // A closed order cannot be paid afterwards, and the browser cannot claim success.
    await press(cancelled, "pay");
    expect((await orderOf(cancelled)).status).toBe("cancelled");
    expect((await confirmation(`?status=success&orderId=${cancelled}`)).state).toBe("failed");
    expect(await candyStock()).toBe(9);
  });

  it("is not served when Yoco is the provider, nor for unknown orders", async () => {
    const id = orderIdFrom(await checkout(handle, "product", "Test Product"));
    const yoco = { payment: { ...testContext(handle).config.payment, provider: "yoco" as const } };
    expect((await press(id, "pay", yoco)).init.status).toBe(404);
    expect((await orderOf(id)).status).toBe("pending");
    expect((await press("00000000-0000-4000-8000-000000000000", "pay")).init.status).toBe(404);
    expect((await press(id, "refund")).init.status).toBe(400);
    const request = new Request(`http://localhost/payments/simulator/not-a-uuid`);
    /* eslint-disable @typescript-eslint/no-explicit-any */
    const page = (await simulatorLoader({
      request,
      params: { orderId: "not-a-uuid" },
      context: testContext(handle),
    } as any)) as any;
    /* eslint-enable @typescript-eslint/no-explicit-any */
    expect(page.init.status).toBe(404);
  });
});

describe("order confirmation", () => {
  it("reads the query like the spec when there is no order, and never shows customer details", async () => {
    expect(await confirmation("?status=success")).toMatchObject({ state: "success", reference: null });
    expect(await confirmation("?status=failed&checkout=ch_unknown")).toMatchObject({
      state: "failed",
      reference: "ch_unknown",
    });
    expect(await confirmation("?status=whatever")).toMatchObject({ state: "pending" });
    const odd = await confirmation(`?status=success&orderId=${encodeURIComponent("' or 1=1 --")}`);
    expect(odd).toMatchObject({ state: "success", fromOrder: false });
    const id = orderIdFrom(await checkout(handle, "product", "Test Product"));
    const view = await confirmation(`?status=pending&orderId=${id}`);
    // What the order holds is shown only to the browser that made the checkout (decision 106): not to this request.
    expect(Object.keys(view).sort()).toEqual([
      "buyer",
      // Whether a membership renews by card (issue 41): null for any other browser, and never a detail of hers.
      "card",
      "checkoutId",
      "fromOrder",
      "orderId",
      "reference",
      "retry",
      "state",
    ]);
    expect(view.buyer).toBeNull();
    expect(view.card).toBeNull();
    expect(JSON.stringify(view)).not.toContain("thandi");
  });

  it("finds an order by its checkout id too", async () => {
    const id = orderIdFrom(await checkout(handle, "product", "Test Product"));
    const order = await orderOf(id);
    expect(await confirmation(`?status=pending&checkout=${order.yocoCheckoutId}`)).toMatchObject({
      reference: order.reference,
      state: "pending",
    });
  });
});

describe("order sweep", () => {
  it("expires pending orders whose hold ran out and returns their units", async () => {
    const id = orderIdFrom(await checkout(handle, "product", "Candy Earrings"));
    const mail = {
      siteUrl: "http://localhost:3000",
      ownerEmail: "owner@example.test",
      secret: "test-secret-test-secret-test-secret",
    };
    const early = await sweepPendingOrders(
      handle.db,
      createSimulatorProvider(),
      new Date("2025-09-10T08:10:00Z"),
      15,
      mail,
    );
    expect(early.expired).toBe(0);
    expect((await orderOf(id)).status).toBe("pending");
    const later = fixedClock("2025-09-10T08:16:00Z").now();
    const swept = await sweepPendingOrders(handle.db, createSimulatorProvider(), later, 15, mail);
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    expect((await orderOf(id)).status).toBe("expired");
    expect((await holdOf(id)).status).toBe("released");
  });
});
