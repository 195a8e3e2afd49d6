import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listCollectionCards } from "~/catalog/items.server";
import type { AppConfig } from "~/config.server";
import type { DatabaseHandle } from "~/db/client.server";
import { catalogItems, emailOutbox, orderEvents, orders, refunds, stockHolds } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { confirmationView } from "~/orders/confirmation.server";
import { listOrdersForAdmin, ordersNeedingAttention } from "~/orders/orders-admin.server";
import { createYocoProvider } from "~/payments/yoco.server";
import { action as webhook } from "~/routes/api.webhooks.yoco";
import { startFakeYoco, type FakeYoco, type SignedDelivery } from "../fakes/yoco-server";
import { guardedRoute } from "../support/route-middleware";
import { createTestDatabase, testContext } from "../support/test-db";
import { checkout } from "../support/checkout";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";

// Admin routes as React Router calls them: their layouts' middleware checks the session (decision 110).
const orderRoute = guardedRoute("routes/admin/order.tsx");
const ordersExport = guardedRoute("routes/admin/orders-export.ts");

/**
 * Issue 20's money path against the fake Yoco (live keys, so refunds work as the contract says):
 * returns from the payment page are settled by asking Yoco, late payments never oversell, and the
 * owner's refund, fulfilment and search work through the order page's real action.
 */
const BASE = "http://localhost:3000";
const clock = fixedClock("2025-09-10T10:00:00+02:00");
let yoco: FakeYoco;
let handle: DatabaseHandle;
let config: Partial<AppConfig>;
let cookie: string;

beforeAll(async () => {
  yoco = await startFakeYoco({ secretKey: "sk_live_fake0123456789" });
});
afterAll(async () => {
  await handle?.close();
  await yoco.close();
});
beforeEach(async () => {
  await handle?.close();
  handle = await createTestDatabase();
  clock.set("2025-09-10T10:00:00+02:00");
  const base = testContext(handle).config;
  config = {
    payment: {
      ...base.payment,
      provider: "yoco",
      yocoApiBase: yoco.base,
      yocoSecretKey: yoco.secretKey,
      yocoWebhookSecret: yoco.webhookSecret,
    },
  };
  cookie = await signedInOwner(handle, { config });
});

const context = () => testContext(handle, { config, clock });
const provider = () => createYocoProvider({ apiBase: yoco.base, secretKey: yoco.secretKey, attempts: 1 });

async function buyCandy() {
  const result = await checkout(handle, "product", "Candy Earrings", { config, clock, provider: provider() });
  if (!(result instanceof Response)) throw new Error(JSON.stringify(result));
  const [order] = await handle.db.select().from(orders).orderBy(orders.createdAt);
  const mine = (await handle.db.select().from(orders)).find((o) =>
    result.headers.get("location")?.includes(o.yocoCheckoutId ?? "none"),
  );
  return mine ?? order!;
}

async function deliver(delivery: SignedDelivery) {
  const request = new Request(`${BASE}/api/webhooks/yoco`, {
    method: "POST",
    body: delivery.body,
    headers: delivery.headers,
  });
  const response = (await webhook({ request, context: context(), params: {} } as never)) as Response;
  return (await response.json()) as { outcome: string };
}

const returnTo = (status: string, orderId: string) =>
  confirmationView(new URLSearchParams({ status, orderId }), context(), provider());
const candyLeft = async () =>
  (await listCollectionCards(handle.db, clock.now())).find((c) => c.slug === "candy-earrings")!.available;
const orderRow = async (id: string) => (await handle.db.select().from(orders).where(eq(orders.id, id)))[0]!;

async function orderAction(id: string, fields: Record<string, string>) {
  const request = new Request(`${BASE}/admin/orders/${id}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, Cookie: cookie },
  });
  const answer = await routeAnswer(() => orderRoute.action({ request, params: { id }, context: context() } as never));
  return { status: answer.status, error: (answer.body as { error?: string } | null)?.error ?? null };
}

describe("coming back from the payment page", () => {
  it("failed: Yoco is asked, the order closes as failed, the unit is back at once, and Try Again offers the same item", async () => {
    const order = await buyCandy();
    expect(await candyLeft()).toBe(9);
    const view = await returnTo("failed", order.id);
    expect(view.state).toBe("failed");
    expect(view.retry).toBe("?type=product&item=Candy+Earrings&retry=1");
    expect((await orderRow(order.id)).status).toBe("failed");
    expect(await candyLeft()).toBe(10);
    expect(yoco.requests.some((r) => r.method === "GET" && r.path === `/api/checkouts/${order.yocoCheckoutId}`)).toBe(
      true,
    );
  });

  it("cancelled: closed as cancelled, unit back, Payment Failed with Try Again", async () => {
    const order = await buyCandy();
    const view = await returnTo("cancelled", order.id);
    expect(view).toMatchObject({ state: "failed" });
    expect((await orderRow(order.id)).status).toBe("cancelled");
    expect(await candyLeft()).toBe(10);
  });

  it("a failed return whose checkout Yoco calls completed is recorded as paid (the query is never trusted)", async () => {
    const order = await buyCandy();
    yoco.pay(order.yocoCheckoutId!);
    const view = await returnTo("failed", order.id);
    expect(view.state).toBe("success");
    expect((await orderRow(order.id)).status).toBe("paid");
  });

  it("success before the webhook: paid at once, badge drops, emails queued; the late webhook changes nothing", async () => {
    const order = await buyCandy();
    const delivery = yoco.pay(order.yocoCheckoutId!);
    expect((await returnTo("success", order.id)).state).toBe("success");
    expect(await candyLeft()).toBe(9);
    expect(await handle.db.select().from(emailOutbox).where(eq(emailOutbox.orderId, order.id))).toHaveLength(2);
    expect((await deliver(delivery)).outcome).toBe("unchanged");
    expect(await candyLeft()).toBe(9);
    const lines = await handle.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order.id))
      .orderBy(asc(orderEvents.id));
    expect(lines.map((e) => e.kind)).toEqual(["created", "paid", "email", "email", "webhook"]);
    expect(await handle.db.select().from(emailOutbox).where(eq(emailOutbox.orderId, order.id))).toHaveLength(2);
  });

  it("Yoco unreachable on a failed return: Payment Failed is shown, but the order and its hold wait for the sweep", async () => {
    const order = await buyCandy();
    yoco.failNext(1, 503);
    expect((await returnTo("failed", order.id)).state).toBe("failed");
    expect((await orderRow(order.id)).status).toBe("pending");
    expect(await candyLeft()).toBe(9);
  });
});

describe("a payment that arrives after its hold was released", () => {
  it("takes a unit that is still free: paid, stock down, nothing flagged", async () => {
    const order = await buyCandy();
    await returnTo("cancelled", order.id);
    const outcome = await deliver(yoco.pay(order.yocoCheckoutId!));
    expect(outcome.outcome).toBe("paid");
    expect(await orderRow(order.id)).toMatchObject({ status: "paid", needsAttention: false });
    expect(await candyLeft()).toBe(9);
  });

  it("when the last unit was sold meanwhile: paid but needs attention, stock never negative, the owner emailed and flagged", async () => {
    await handle.db.update(catalogItems).set({ stockQuantity: 1 }).where(eq(catalogItems.slug, "candy-earrings"));
    const late = await buyCandy();
    await returnTo("failed", late.id);
    const other = await buyCandy();
    expect((await deliver(yoco.pay(other.yocoCheckoutId!))).outcome).toBe("paid");
    expect(await candyLeft()).toBe(0);
    expect((await deliver(yoco.pay(late.yocoCheckoutId!))).outcome).toBe("paid-needs-attention");
    const flagged = await orderRow(late.id);
    expect(flagged).toMatchObject({ status: "paid", needsAttention: true });
    const [candy] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "candy-earrings"));
    expect(candy!.stockQuantity).toBe(0);
    const owner = await handle.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `order-attention:${late.id}`));
    expect(owner).toHaveLength(1);
    expect(owner[0]!.textBody).toContain(`/admin/orders/${late.id}`);
    expect((await ordersNeedingAttention(handle.db)).map((o) => o.id)).toEqual([late.id]);
    // One statement writes the payment, its emails and its history (decision 102), in the order they happened.
    const lines = await handle.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, late.id))
      .orderBy(asc(orderEvents.id));
    expect(lines.slice(-5).map((e) => e.kind)).toEqual(["paid", "email", "email", "attention", "email"]);
    const queued = await handle.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.orderId, late.id))
      .orderBy(asc(emailOutbox.id));
    expect(queued.map((e) => e.dedupeKey?.split(":")[0])).toEqual([
      "order-confirmation",
      "order-owner-notice",
      "order-attention",
    ]);
    expect(
      lines
        .slice(-5)
        .filter((e) => e.kind === "email")
        .map((e) => (e.detail as { outboxId: number }).outboxId),
    ).toEqual(queued.map((e) => e.id));
    const attention = await listOrdersForAdmin(handle.db, {
      q: "",
      status: "attention",
      type: "",
      from: "",
      to: "",
      event: "",
      page: 1,
    });
    expect(attention.orders.map((o) => o.id)).toEqual([late.id]);
  });
});

describe("the owner's order page", () => {
  async function paidCandy() {
    const order = await buyCandy();
    await deliver(yoco.pay(order.yocoCheckoutId!));
    return order;
  }

  it("a refund pressed twice reaches Yoco once, shows refund pending, and ends refunded with the unit back on sale", async () => {
    const order = await paidCandy();
    const key = "refund-key-0001";
    const fields = { intent: "refund", amount: "350.00", restock: "on", key };
    const [first, second] = await Promise.all([orderAction(order.id, fields), orderAction(order.id, fields)]);
    expect([first.status, second.status]).toEqual([302, 302]);
    const asked = yoco.requests.filter((r) => r.method === "POST" && r.path.endsWith("/refund"));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.headers["idempotency-key"]).toBe(key);
    expect(await handle.db.select().from(refunds)).toMatchObject([
      { status: "pending", amountCents: 35000, restock: true },
    ]);
    const pending = await listOrdersForAdmin(handle.db, {
      q: "",
      status: "refund-pending",
      type: "",
      from: "",
      to: "",
      event: "",
      page: 1,
    });
    expect(pending.orders.map((o) => o.id)).toEqual([order.id]);
    expect(await candyLeft()).toBe(9);

    const delivery = yoco.refundSucceeded(order.yocoCheckoutId!);
    expect((await deliver(delivery)).outcome).toBe("refunded");
    expect((await deliver(delivery)).outcome).toBe("duplicate");
    expect(await orderRow(order.id)).toMatchObject({ status: "refunded", refundedCents: 35000 });
    expect(await handle.db.select().from(refunds)).toMatchObject([{ status: "succeeded" }]);
    expect(await candyLeft()).toBe(10);
    const emails = await handle.db.select().from(emailOutbox).where(eq(emailOutbox.orderId, order.id));
    expect(emails.filter((e) => e.subject.startsWith("Refund for your Honey Bee order"))).toHaveLength(1);
    const history = (await handle.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id))).map(
      (e) => e.kind,
    );
    expect(history).toEqual(expect.arrayContaining(["created", "paid", "refund"]));
  });

  it(
    "a partial refund leaves the order partly refunded and the rest refundable; a failed refund is shown and changes " +
      "nothing",
    async () => {
      const order = await paidCandy();
      expect((await orderAction(order.id, { intent: "refund", amount: "100", key: "partial-key-001" })).status).toBe(
        302,
      );
      expect(yoco.refunds.get(order.yocoCheckoutId!)?.at(-1)?.amount).toBe(10000);
      await deliver(yoco.refundSucceeded(order.yocoCheckoutId!));
      expect(await orderRow(order.id)).toMatchObject({ status: "partially_refunded", refundedCents: 10000 });
      expect(await candyLeft()).toBe(9);

      const tooMuch = await orderAction(order.id, { intent: "refund", amount: "300", key: "partial-key-002" });
      expect(tooMuch).toMatchObject({ status: 400, error: "Refund an amount from R 0.01 to R 250.00." });
      expect((await orderAction(order.id, { intent: "refund", amount: "250", key: "partial-key-003" })).status).toBe(
        302,
      );
      expect((await deliver(yoco.refundFailed(order.yocoCheckoutId!))).outcome).toBe("refund-failed");
      expect(await orderRow(order.id)).toMatchObject({ status: "partially_refunded", refundedCents: 10000 });
      expect(
        (await handle.db.select().from(refunds).where(eq(refunds.idempotencyKey, "partial-key-003")))[0],
      ).toMatchObject({ status: "failed" });
    },
  );

  it("Mark fulfilled emails the customer once; a second press changes nothing", async () => {
    const order = await paidCandy();
    expect((await orderAction(order.id, { intent: "fulfil", method: "posted" })).status).toBe(302);
    expect((await orderAction(order.id, { intent: "fulfil", method: "collected" })).status).toBe(302);
    expect(await orderRow(order.id)).toMatchObject({ fulfilmentStatus: "fulfilled", fulfilmentMethod: "posted" });
    const sent = await handle.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `order-fulfilled:${order.id}`));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.toAddress).toBe("thandi@example.com");
  });

  it("refuses what it cannot do, with a message, and changes nothing", async () => {
    const pending = await buyCandy();
    expect((await orderAction(pending.id, { intent: "fulfil", method: "posted" })).status).toBe(409);
    expect((await orderAction(pending.id, { intent: "refund", amount: "350", key: "pending-key-01" })).status).toBe(
      409,
    );
    expect((await orderAction(pending.id, { intent: "fulfil", method: "teleported" })).status).toBe(400);
    expect((await orderAction(pending.id, { intent: "refund", amount: "lots", key: "pending-key-02" })).status).toBe(
      400,
    );
    expect((await orderAction(pending.id, { intent: "explode" })).status).toBe(400);
    expect((await orderAction("00000000-0000-0000-0000-000000000000", { intent: "note", note: "x" })).status).toBe(404);
    expect(await orderRow(pending.id)).toMatchObject({
      status: "pending",
      fulfilmentStatus: "unfulfilled",
      ownerNote: null,
    });
    expect(await handle.db.select().from(refunds)).toEqual([]);
  });

  it("finds an order by reference, email, phone or name, and filters by status and date", async () => {
    const order = await paidCandy();
    const find = (q: string, extra: Record<string, string> = {}) =>
      listOrdersForAdmin(handle.db, { q, status: "", type: "", from: "", to: "", event: "", page: 1, ...extra }).then(
        (r) => r.orders.map((o) => o.id),
      );
    expect(await find(order.reference)).toEqual([order.id]);
    expect(await find(order.reference.toLowerCase())).toEqual([order.id]);
    expect(await find("THANDI@example")).toEqual([order.id]);
    expect(await find("082 555")).toEqual([order.id]);
    expect(await find("thandi mok")).toEqual([order.id]);
    expect(await find("nobody")).toEqual([]);
    expect(await find("", { status: "paid", type: "product", from: "2025-09-10", to: "2025-09-10" })).toEqual([
      order.id,
    ]);
    expect(await find("", { from: "2025-09-11" })).toEqual([]);

    // The CSV export of the filtered list: a byte-order mark, the header, the one matching order.
    const exported = (await ordersExport.loader({
      request: new Request(`${BASE}/admin/orders/export?q=thandi`, { headers: { Cookie: cookie } }),
      params: {},
      context: context(),
    } as never)) as Response;
    expect(exported.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await exported.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = new TextDecoder().decode(bytes);
    expect(csv.startsWith("Date,Reference,First name")).toBe(true);
    const rows = csv.trim().split("\r\n");
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(`${order.reference},Thandi,Mokoena,thandi@example.com`);
    expect(rows[1]).toContain(",350.00,0.00,paid,");
  });
});

describe("the simulator refunds as Yoco would", () => {
  it("a refund on a simulator order ends refunded at once", async () => {
    const sim = testContext(handle, { clock });
    const result = await checkout(handle, "product", "Candy Earrings", { clock });
    const orderId = /\/payments\/simulator\/([0-9a-f-]{36})/.exec(
      (result as Response).headers.get("location") ?? "",
    )![1]!;
    const { runSimulatorIntent } = await import("~/orders/simulator-actions.server");
    await runSimulatorIntent(sim, (await orderRow(orderId))!, "pay");
    const request = new Request(`${BASE}/admin/orders/${orderId}`, {
      method: "POST",
      body: new URLSearchParams({ intent: "refund", amount: "350", key: "sim-refund-key-1" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, Cookie: cookie },
    });
    const answer = await orderRoute
      .action({ request, params: { id: orderId }, context: sim } as never)
      .catch((r: unknown) => r);
    expect((answer as Response).status).toBe(302);
    expect(await orderRow(orderId)).toMatchObject({ status: "refunded", refundedCents: 35000 });
    expect(await handle.db.select().from(stockHolds).where(eq(stockHolds.orderId, orderId))).toMatchObject([
      { status: "converted" },
    ]);
  });
});
