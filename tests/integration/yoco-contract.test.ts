import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AppConfig } from "~/config.server";
import type { DatabaseHandle } from "~/db/client.server";
import { orders } from "~/db/schema";
import { confirmationView } from "~/orders/confirmation.server";
import { submitCheckout } from "~/orders/checkout-action.server";
import { PaymentProviderError, type CheckoutRequest } from "~/payments/provider";
import { handlePaymentWebhook } from "~/orders/payment-webhook.server";
import { createYocoProvider } from "~/payments/yoco.server";
import { createTestDatabase, testContext } from "../support/test-db";
import { startFakeYoco, type FakeYoco } from "../fakes/yoco-server";
import { checkoutRequest } from "../support/checkout";

let yoco: FakeYoco;
let handle: DatabaseHandle;
beforeAll(async () => {
  yoco = await startFakeYoco();
  handle = await createTestDatabase();
});
afterAll(async () => {
  await yoco?.close();
  await handle?.close();
});
afterEach(() => {
  yoco.requests.length = 0;
});

const adapter = (overrides: { backoffMs?: number; timeoutMs?: number; secretKey?: string; base?: string } = {}) =>
  createYocoProvider({
    apiBase: overrides.base ?? yoco.base,
    secretKey: overrides.secretKey ?? yoco.secretKey,
    backoffMs: overrides.backoffMs ?? 5,
    timeoutMs: overrides.timeoutMs ?? 2_000,
  });

const request = (key = crypto.randomUUID()): CheckoutRequest => ({
  orderId: "5b0c7a52-2f0e-4a57-9a3c-7d1c5e0b2a11",
  reference: "HB-TESTREF1",
  amountCents: 35000,
  currency: "ZAR",
  lineItems: [{ displayName: "Candy Earrings", quantity: 1, unitPriceCents: 35000 }],
  metadata: { orderId: "5b0c7a52-2f0e-4a57-9a3c-7d1c5e0b2a11", reference: "HB-TESTREF1" },
  successUrl: "http://localhost:3000/order-confirmation?status=success&orderId=x",
  cancelUrl: "http://localhost:3000/order-confirmation?status=cancelled&orderId=x",
  failureUrl: "http://localhost:3000/order-confirmation?status=failed&orderId=x",
  idempotencyKey: key,
});

const yocoConfig = (): Partial<AppConfig> => ({
  payment: {
    provider: "yoco",
    yocoSecretKey: yoco.secretKey,
    yocoWebhookSecret: yoco.webhookSecret,
    yocoApiBase: yoco.base,
    simulatorWebhookSecret: testContext(handle).config.payment.simulatorWebhookSecret,
    stockHoldMinutes: 15,
  },
});

describe("yoco adapter against the fake Yoco API", () => {
  it("creates a checkout with the Bearer key, Idempotency-Key, line items, metadata and return URLs", async () => {
    const req = request();
    const created = await adapter().createCheckout(req);
    expect(created.checkoutId).toMatch(/^ch_/);
    expect(created.redirectUrl).toBe(`https://c.yoco.com/checkout/${created.checkoutId}`);
    const [sent] = yoco.requests;
    expect(sent).toMatchObject({ method: "POST", path: "/api/checkouts", status: 200 });
    expect(sent!.headers.authorization).toBe(`Bearer ${yoco.secretKey}`);
    expect(sent!.headers["idempotency-key"]).toBe(req.idempotencyKey);
    expect(sent!.headers["content-type"]).toBe("application/json");
    expect(sent!.body).toEqual({
      amount: 35000,
      currency: "ZAR",
      successUrl: req.successUrl,
      cancelUrl: req.cancelUrl,
      failureUrl: req.failureUrl,
      metadata: req.metadata,
      lineItems: [{ displayName: "Candy Earrings", quantity: 1, pricingDetails: { price: 35000 } }],
    });
  });

  it("a retried create with the same key is replayed, not a second checkout", async () => {
    const req = request();
    const first = await adapter().createCheckout(req);
    const second = await adapter().createCheckout(req);
    expect(second).toEqual(first);
    expect(yoco.requests.map((r) => r.replayed ?? false)).toEqual([false, true]);
    expect([...yoco.checkouts.values()].filter((c) => c.id === first.checkoutId)).toHaveLength(1);
  });

  it("retries 502, 503 and 504 with backoff and the same Idempotency-Key, then succeeds", async () => {
    yoco.failNext(1, 502);
    yoco.failNext(1, 503);
    const before = yoco.checkouts.size;
    const req = request();
    const created = await adapter().createCheckout(req);
    expect(created.checkoutId).toMatch(/^ch_/);
    expect(yoco.requests.map((r) => r.status)).toEqual([502, 503, 200]);
    expect(new Set(yoco.requests.map((r) => r.headers["idempotency-key"]))).toEqual(new Set([req.idempotencyKey]));
    expect(yoco.checkouts.size).toBe(before + 1);
  });

  it("gives up after three 504s with a retryable error, and does not retry a 400", async () => {
    yoco.failNext(3, 504);
    const down = await adapter()
      .createCheckout(request())
      .catch((e: unknown) => e);
    expect(down).toBeInstanceOf(PaymentProviderError);
    expect(down).toMatchObject({
      retryable: true,
      status: 504,
      message: "The payment service is temporarily unavailable. Please try again.",
    });
    yoco.requests.length = 0;
    const refused = await adapter()
      .createCheckout({ ...request(), amountCents: 0 })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({
      retryable: false,
      status: 400,
      message: "The payment service refused the checkout: amount must be a positive integer in cents.",
    });
    expect(yoco.requests).toHaveLength(1);
  });

  it("treats a slow answer as a timeout and retries it", async () => {
    yoco.delayNext(1, 4_000);
    const created = await adapter({ timeoutMs: 1_500 }).createCheckout(request());
    expect(created.checkoutId).toMatch(/^ch_/);
    expect(yoco.requests.length).toBeGreaterThanOrEqual(2);
  });

  it("a wrong key is refused without retries", async () => {
    const error = await adapter({ secretKey: "sk_test_wrong" })
      .createCheckout(request())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ retryable: false, status: 401 });
  });

  it("reads a checkout's status for reconciliation", async () => {
    const created = await adapter().createCheckout(request());
    expect(await adapter().getCheckout(created.checkoutId)).toEqual({
      checkoutId: created.checkoutId,
      status: "created",
      paymentId: null,
    });
    yoco.pay(created.checkoutId);
    const paid = await adapter().getCheckout(created.checkoutId);
    expect(paid.status).toBe("completed");
    expect(paid.paymentId).toMatch(/^p_/);
  });

  it("requests refunds (live mode only), replaying a repeated refund request", async () => {
    const live = await startFakeYoco({ secretKey: "sk_live_fake0123456789" });
    try {
      const provider = createYocoProvider({ apiBase: live.base, secretKey: live.secretKey, backoffMs: 5 });
      const created = await provider.createCheckout(request());
      live.pay(created.checkoutId);
      const refund = await provider.refund(created.checkoutId, "refund-key-1");
      expect(refund.refundId).toMatch(/^rfd_/);
      expect(await provider.refund(created.checkoutId, "refund-key-1")).toEqual(refund);
      expect(live.requests.at(-1)).toMatchObject({
        path: `/api/checkouts/${created.checkoutId}/refund`,
        status: 202,
        replayed: true,
      });
    } finally {
      await live.close();
    }
    const testMode = await adapter().createCheckout(request());
    yoco.pay(testMode.checkoutId);
    await expect(adapter().refund(testMode.checkoutId, "k")).rejects.toMatchObject({ status: 403 });
  });
});

describe("the whole path with the yoco provider", () => {
  const context = () => testContext(handle, { config: yocoConfig() });
  const deliver = (delivery: { headers: Record<string, string>; body: string }) =>
    handlePaymentWebhook(new Request("http://localhost/api/webhooks/yoco", { method: "POST", ...delivery }), context());

  it("checkout → Yoco page → signed payment.succeeded webhook → paid; refund.succeeded → refunded", async () => {
    const result = await submitCheckout(checkoutRequest("product", "Candy Earrings"), context(), adapter());
    if (!(result instanceof Response)) throw new Error(JSON.stringify(result));
    const [order] = await handle.db.select().from(orders).where(eq(orders.provider, "yoco"));
    expect(result.headers.get("Location")).toBe(`https://c.yoco.com/checkout/${order!.yocoCheckoutId}`);
    expect(yoco.requests[0]!.headers["idempotency-key"]).toBe(order!.idempotencyKey);
    const checkoutId = order!.yocoCheckoutId!;
    expect(yoco.checkouts.get(checkoutId)!.metadata.orderId).toBe(order!.id);

    const paid = await deliver(yoco.pay(checkoutId));
    expect(await paid.json()).toEqual({ received: true, outcome: "paid" });
    const [after] = await handle.db.select().from(orders).where(eq(orders.id, order!.id));
    expect(after).toMatchObject({ status: "paid", providerPaymentId: yoco.checkouts.get(checkoutId)!.paymentId });

    const refunded = await deliver(yoco.refundSucceeded(checkoutId));
    expect(await refunded.json()).toMatchObject({ outcome: "refunded" });
    const [final] = await handle.db.select().from(orders).where(eq(orders.id, order!.id));
    expect(final!.status).toBe("refunded");
  });

  it("a webhook signed with another secret is refused", async () => {
    const other = await startFakeYoco();
    try {
      const created = await createYocoProvider({ apiBase: other.base, secretKey: other.secretKey }).createCheckout(
        request(),
      );
      const res = await deliver(other.pay(created.checkoutId));
      expect(res.status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it("returning with status=success before the webhook: the server asks Yoco and records the payment once", async () => {
    const result = await submitCheckout(checkoutRequest("product", "Test Product"), context(), adapter());
    expect(result).toBeInstanceOf(Response);
    const [order] = await handle.db.select().from(orders).where(eq(orders.itemName, "Test Product"));
    const query = new URLSearchParams({ status: "success", orderId: order!.id });

    // Not paid yet: the page says pending and the order stays pending.
    expect(await confirmationView(query, context(), adapter())).toMatchObject({
      state: "pending",
      reference: order!.reference,
    });

    const late = yoco.pay(order!.yocoCheckoutId!);
    const views = await Promise.all([
      confirmationView(query, context(), adapter()),
      confirmationView(query, context(), adapter()),
    ]);
    expect(views.map((v) => v.state)).toEqual(["success", "success"]);
    const [after] = await handle.db.select().from(orders).where(eq(orders.id, order!.id));
    expect(after!.status).toBe("paid");
    // The webhook arriving afterwards changes nothing.
    expect(await (await deliver(late)).json()).toMatchObject({ outcome: "unchanged" });
  });

  it("Yoco unreachable while reconciling: the page shows pending, nothing changes", async () => {
    const result = await submitCheckout(checkoutRequest("product", "Crochet Earrings"), context(), adapter());
    expect(result).toBeInstanceOf(Response);
    const [order] = await handle.db.select().from(orders).where(eq(orders.itemName, "Crochet Earrings"));
    const view = await confirmationView(
      new URLSearchParams({ status: "success", orderId: order!.id }),
      context(),
      adapter({ base: "http://127.0.0.1:9", backoffMs: 1 }),
    );
    expect(view.state).toBe("pending");
  });
});
