import { PGlite } from "@electric-sql/pglite";
import { expect, test } from "./support/test";
import path from "node:path";
import { startFakeYoco, type FakeYoco } from "../fakes/yoco-server";
import { startInstance, tempDataDir } from "./support/instances";

// The app is killed (SIGKILL: no goodbye) after two buyers reached Yoco's payment page; one of them
// pays while the shop is down. After a restart, Yoco's retried webhook completes that order exactly
// once, and the other order's hold, now expired, goes back on sale.
test.setTimeout(120_000);

let yoco: FakeYoco;
test.beforeAll(async () => {
  yoco = await startFakeYoco();
});
test.afterAll(async () => {
  await yoco?.close();
});

test("SIGKILL between checkout and webhook: after a restart the webhook completes the order once and expired holds are released", async ({
  page,
}) => {
  const dataDir = tempDataDir();
  const env = {
    DATA_DIR: dataDir,
    YOCO_SECRET_KEY: yoco.secretKey,
    YOCO_WEBHOOK_SECRET: yoco.webhookSecret,
    YOCO_API_BASE: yoco.base,
  };
  const first = await startInstance(env);

  const buy = async (buyer: string) => {
    const item = "Candy Earrings";
    const response = await fetch(`${first.base}/checkout?${new URLSearchParams({ type: "product", item })}`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: first.base, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        type: "product",
        item,
        firstName: buyer,
        lastName: "Buyer",
        email: `${buyer}@example.com`,
        phone: "0821234567",
        address: "1 Long Street",
      }),
    });
    expect(response.status).toBe(302);
    const checkoutId = response.headers.get("location")!.split("/").pop()!;
    return { checkoutId, orderId: yoco.checkouts.get(checkoutId)!.metadata.orderId! };
  };
  const paying = await buy("paying");
  const leaving = await buy("leaving");
  await page.goto(`${first.base}/styled-collections`);
  await expect(page.getByText("8 LIMITED STOCK!")).toBeVisible();

  first.process.kill("SIGKILL");
  await first.exited;
  // The buyer pays while the shop is down: the first delivery of the webhook cannot arrive.
  const delivery = yoco.pay(paying.checkoutId);

  // The restart reads a clock past the 15-minute hold, as when the shop comes back later.
  const later = new Date(Date.now() + 30 * 60_000).toISOString();
  const second = await startInstance({ ...env, APP_NOW: later });
  try {
    const retried = await fetch(`${second.base}/api/webhooks/yoco`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...delivery.headers },
      body: delivery.body,
    });
    expect(retried.status).toBe(200);
    // Yoco retries again: nothing changes the second time.
    const again = await fetch(`${second.base}/api/webhooks/yoco`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...delivery.headers },
      body: delivery.body,
    });
    expect(again.status).toBe(200);

    await page.goto(`${second.base}/order-confirmation?status=success&orderId=${paying.orderId}`);
    await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
    // One sold, the other hold expired: nine left, without anyone touching the second order.
    await expect
      .poll(
        async () => {
          await page.goto(`${second.base}/styled-collections`);
          return page.getByText("9 LIMITED STOCK!").count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
  } finally {
    await second.stop();
  }

  const db = new PGlite(path.join(dataDir, "pglite"));
  try {
    const status = async (orderId: string) =>
      (await db.query<{ status: string }>("select status from orders where id = $1", [orderId])).rows[0]?.status;
    expect(await status(paying.orderId)).toBe("paid");
    // The sweep that runs just after start settled the abandoned order: Yoco says it was never paid.
    expect(await status(leaving.orderId)).toBe("expired");
    const holds = (
      await db.query<{ order_id: string; status: string }>("select order_id, status from stock_holds order by id")
    ).rows;
    expect(holds).toEqual([
      { order_id: paying.orderId, status: "converted" },
      { order_id: leaving.orderId, status: "released" },
    ]);
    const stock = (
      await db.query<{ n: number }>("select stock_quantity as n from catalog_items where slug = 'candy-earrings'")
    ).rows[0]!.n;
    expect(stock).toBe(9);
    // The delivery is recorded once however often it came; the sweep just after start may have asked
    // Yoco first and recorded its answer as one reconciliation event of its own.
    const events = (
      await db.query<{ webhook_id: string }>("select webhook_id from payment_webhook_events order by webhook_id")
    ).rows.map((r) => r.webhook_id);
    expect(events.filter((id) => id === delivery.headers["webhook-id"])).toHaveLength(1);
    expect(events.filter((id) => id !== delivery.headers["webhook-id"])).toEqual(
      events.length === 2 ? [`reconcile:${paying.checkoutId}`] : [],
    );
    const emails = (
      await db.query<{ n: number }>("select count(*)::int as n from email_outbox where dedupe_key like $1", [
        `%${paying.orderId}%`,
      ])
    ).rows[0]!.n;
    expect(emails).toBe(2);
  } finally {
    await db.close();
  }
});
