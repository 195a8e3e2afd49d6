import { eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { catalogItems, emailOutbox, orders, paymentWebhookEvents, stockHolds } from "~/db/schema";
import { signWebhook } from "~/payments/webhook-signature.server";
import { action } from "~/routes/api.webhooks.yoco";
import { createTestDatabase, testContext } from "../support/test-db";
import { checkout, orderIdFrom } from "../support/checkout";

let handle: DatabaseHandle;
afterAll(() => handle?.close());
beforeEach(async () => {
  await handle?.close();
  handle = await createTestDatabase();
});

const secret = () => testContext(handle).config.payment.simulatorWebhookSecret;

function paymentEvent(orderId: string, overrides: Record<string, unknown> = {}) {
  return {
    id: "evt_1",
    type: "payment.succeeded",
    createdDate: "2025-09-10T08:00:00.000Z",
    payload: {
      id: "p_123",
      type: "payment",
      amount: 35000,
      currency: "ZAR",
      status: "succeeded",
      mode: "test",
      paymentMethodDetails: {
        type: "card",
        card: { maskedCard: "************1111", scheme: "visa", expiryMonth: 1, expiryYear: 30 },
      },
      metadata: { checkoutId: "ch_sim_x", orderId },
      ...overrides,
    },
  };
}

function deliver(body: string, headers: Record<string, string>) {
  const request = new Request("http://localhost/api/webhooks/yoco", { method: "POST", body, headers });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return action({ request, context: testContext(handle), params: {} } as any) as Promise<Response>;
}

function signed(event: unknown, webhookId = "msg_1", at = new Date(), key = secret()) {
  const body = JSON.stringify(event);
  return { body, headers: signWebhook(key, webhookId, body, at) };
}

async function state(orderId: string) {
  const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
  const [candy] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "candy-earrings"));
  return {
    order: order!,
    stock: candy!.stockQuantity,
    holds: await handle.db.select().from(stockHolds).where(eq(stockHolds.orderId, orderId)),
    emails: await handle.db.select().from(emailOutbox),
    events: await handle.db.select().from(paymentWebhookEvents),
  };
}

async function pendingCandyOrder() {
  return orderIdFrom(await checkout(handle, "product", "Candy Earrings"));
}

describe("POST /api/webhooks/yoco", () => {
  it("payment.succeeded marks the order paid, converts the hold, decrements stock and queues two emails", async () => {
    const id = await pendingCandyOrder();
    const { body, headers } = signed(paymentEvent(id));
    const res = await deliver(body, headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: "paid" });
    const s = await state(id);
    expect(s.order).toMatchObject({ status: "paid", providerPaymentId: "p_123" });
    expect(s.order.completedAt?.toISOString()).toBe("2025-09-10T08:00:00.000Z");
    expect(s.holds).toMatchObject([{ status: "converted" }]);
    expect(s.stock).toBe(9);
    expect(s.emails).toHaveLength(2);
    const customer = s.emails.find((e) => e.toAddress === "thandi@example.com")!;
    expect(customer.dedupeKey).toBe(`order-confirmation:${id}`);
    for (const text of ["Candy Earrings", "R 350.00", s.order.reference, "processed within 1-2 business days"]) {
      expect(customer.textBody).toContain(text);
    }
    const owner = s.emails.find((e) => e.toAddress === "owner@example.test")!;
    expect(owner.dedupeKey).toBe(`order-owner-notice:${id}`);
    expect(owner.textBody).toContain("+27 82 555 0101");
  });

  it("the same delivery twice changes nothing the second time", async () => {
    const id = await pendingCandyOrder();
    const delivery = signed(paymentEvent(id));
    await deliver(delivery.body, delivery.headers);
    const res = await deliver(delivery.body, delivery.headers);
    expect(await res.json()).toEqual({ received: true, outcome: "duplicate" });
    const s = await state(id);
    expect(s.stock).toBe(9);
    expect(s.emails).toHaveLength(2);
    expect(s.events).toHaveLength(1);
  });

  it("a payment naming no order we know is answered and recorded once, and changes nothing", async () => {
    const delivery = signed(
      paymentEvent("00000000-0000-4000-8000-000000000000", {
        metadata: { checkoutId: "ch_nobody", orderId: "00000000-0000-4000-8000-000000000000" },
      }),
      "msg_unknown",
    );
    expect(await (await deliver(delivery.body, delivery.headers)).json()).toEqual({
      received: true,
      outcome: "unknown-order",
    });
    expect(await (await deliver(delivery.body, delivery.headers)).json()).toEqual({
      received: true,
      outcome: "duplicate",
    });
    const s = await state("00000000-0000-4000-8000-000000000000");
    expect(s.events.map((e) => e.webhookId)).toEqual(["msg_unknown"]);
    expect(s.emails).toHaveLength(0);
  });

  it("two concurrent deliveries of one webhook are processed once", async () => {
    const id = await pendingCandyOrder();
    const delivery = signed(paymentEvent(id));
    const answers = await Promise.all([
      deliver(delivery.body, delivery.headers),
      deliver(delivery.body, delivery.headers),
    ]);
    const outcomes = (await Promise.all(answers.map((r) => r.json()))).map((b) => b.outcome).sort();
    expect(outcomes).toEqual(["duplicate", "paid"]);
    const s = await state(id);
    expect(s.stock).toBe(9);
    expect(s.emails).toHaveLength(2);
  });

  it("a second payment event (new webhook id) for a paid order leaves one correct order", async () => {
    const id = await pendingCandyOrder();
    const first = signed(paymentEvent(id), "msg_a");
    const second = signed({ ...paymentEvent(id), id: "evt_2" }, "msg_b");
    await deliver(first.body, first.headers);
    expect(await (await deliver(second.body, second.headers)).json()).toMatchObject({ outcome: "unchanged" });
    const s = await state(id);
    expect(s.stock).toBe(9);
    expect(s.emails).toHaveLength(2);
  });

  it("refund.succeeded marks a paid order refunded; a refund that overtakes its payment wins", async () => {
    const paidId = await pendingCandyOrder();
    const pay = signed(paymentEvent(paidId), "msg_pay");
    await deliver(pay.body, pay.headers);
    const refund = signed(
      {
        id: "evt_r",
        type: "refund.succeeded",
        payload: {
          id: "rfd_1",
          amount: 35000,
          currency: "ZAR",
          paymentId: "p_123",
          status: "succeeded",
          metadata: { checkoutId: "ch_sim_x", orderId: paidId },
        },
      },
      "msg_refund",
    );
    expect(await (await deliver(refund.body, refund.headers)).json()).toMatchObject({ outcome: "refunded" });
    expect((await state(paidId)).order.status).toBe("refunded");

    // Out of order: the refund arrives first, then the payment; the order ends refunded, stock untouched.
    const otherId = await pendingCandyOrder();
    const early = signed(
      {
        id: "evt_r2",
        type: "refund.succeeded",
        payload: { id: "rfd_2", amount: 35000, currency: "ZAR", status: "succeeded", metadata: { orderId: otherId } },
      },
      "msg_refund_2",
    );
    await deliver(early.body, early.headers);
    const late = signed(paymentEvent(otherId, { id: "p_late" }), "msg_pay_2");
    expect(await (await deliver(late.body, late.headers)).json()).toMatchObject({ outcome: "unchanged" });
    const s = await state(otherId);
    expect(s.order.status).toBe("refunded");
    expect(s.holds).toMatchObject([{ status: "released" }]);
    expect(s.stock).toBe(9);
  });

  it("a payment whose amount differs from the order does not mark it paid", async () => {
    const id = await pendingCandyOrder();
    const { body, headers } = signed(paymentEvent(id, { amount: 100 }));
    expect(await (await deliver(body, headers)).json()).toMatchObject({ outcome: "amount-mismatch" });
    expect((await state(id)).order.status).toBe("pending");
  });

  describe("refuses bad deliveries and changes nothing", () => {
    const cases: [string, (id: string) => { body: string; headers: Record<string, string> }, number][] = [
      [
        "forged signature",
        (id) =>
          signed(
            paymentEvent(id),
            "msg_f",
            new Date(),
            "whsec_" + Buffer.from("not-the-secret-at-all!!").toString("base64"),
          ),
        401,
      ],
      [
        "tampered body",
        (id) => ({ ...signed(paymentEvent(id)), body: JSON.stringify(paymentEvent(id, { amount: 1 })) }),
        401,
      ],
      [
        "stale timestamp (4 minutes old)",
        (id) => signed(paymentEvent(id), "msg_s", new Date(Date.now() - 4 * 60_000)),
        401,
      ],
      ["timestamp from the future", (id) => signed(paymentEvent(id), "msg_t", new Date(Date.now() + 4 * 60_000)), 401],
      ["missing headers", (id) => ({ body: JSON.stringify(paymentEvent(id)), headers: {} }), 400],
      [
        "malformed timestamp",
        (id) => ({
          ...signed(paymentEvent(id)),
          headers: { ...signed(paymentEvent(id)).headers, "webhook-timestamp": "soon" },
        }),
        400,
      ],
      ["signed but not JSON", () => ({ body: "not json", headers: signWebhook(secret(), "msg_j", "not json") }), 400],
      ["signed but malformed payment", (id) => signed(paymentEvent(id, { amount: "lots" })), 400],
    ];
    for (const [name, make, status] of cases) {
      it(name, async () => {
        const id = await pendingCandyOrder();
        const before = await state(id);
        const { body, headers } = make(id);
        const res = await deliver(body, headers);
        expect(res.status).toBe(status);
        const after = await state(id);
        expect(after.order.status).toBe("pending");
        expect(after.events).toHaveLength(0);
        expect(after.emails).toHaveLength(0);
        expect(after.stock).toBe(before.stock);
      });
    }
  });
});
