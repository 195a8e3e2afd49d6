import { PGlite } from "@electric-sql/pglite";
import { type Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { axe } from "./support/axe";
import fs from "node:fs";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { startInstance, tempDataDir, type Instance } from "./support/instances";

/*
 * Checkout and payment on an instance of its own (own data folder, candy earrings at 10), so what
 * these tests buy never changes what the other specs see on the shared server.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(90_000);

const OWNER = "owner@example.test";
const dataDir = tempDataDir();
let app: Instance;
/** An order left pending by the browser test, paid later by a webhook sent over HTTP. */
let pendingOrderId = "";

test.beforeAll(async () => {
  test.setTimeout(90_000);
  app = await startInstance({
    DATA_DIR: dataDir,
    APP_NOW: "2025-09-10T10:00:00+02:00",
    OWNER_EMAIL: OWNER,
    STOCK_HOLD_MINUTES: "15",
  });
});
test.afterAll(async () => {
  await app?.stop();
});

const url = (p: string) => `${app.base}${p}`;
const CANDY = "/checkout?type=product&item=Candy%20Earrings&price=R350";

async function fillCustomer(page: Page, values: Partial<Record<string, string>> = {}) {
  const v = {
    firstName: "Lerato",
    lastName: "Dube",
    email: "lerato@example.com",
    phone: "082 555 0199",
    address: "5 Vilakazi Street\nOrlando West\nSoweto",
    ...values,
  };
  await page.getByLabel("First Name").fill(v.firstName);
  await page.getByLabel("Last Name").fill(v.lastName);
  await page.getByLabel("Email").fill(v.email);
  await page.getByLabel("Phone").fill(v.phone);
  await page.getByLabel("Address").fill(v.address);
}

async function candyStockBadge(page: Page) {
  await page.goto(url("/product/candy-earrings"));
  return (await page.getByText(/\d+ LIMITED STOCK!/).textContent())?.trim();
}

test("the form: server price, shipping note, input types, and the Missing Information toast", async ({ page }) => {
  await page.goto(url("/checkout?type=product&item=Candy%20Earrings&price=R1"));
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  await expect(page.getByTestId("checkout-total")).toHaveText("R 350.00");
  await expect(page.getByText("Free shipping included")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("type", "email");
  await expect(page.getByLabel("Phone")).toHaveAttribute("type", "tel");
  await expect(page.getByLabel("Address")).toHaveJSProperty("tagName", "TEXTAREA");
  await expect(page.getByRole("link", { name: "← Back" })).toBeVisible();
  await fillCustomer(page, { phone: "" });
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page.getByText("Missing Information")).toBeVisible();
  await expect(page.getByText("Please fill in all required fields")).toBeVisible();
  await expect(page.getByLabel("First Name")).toHaveValue("Lerato");
  await expect(page).toHaveURL(/\/checkout\?/);
});

test("unsellable and default checkouts show a message instead of the form", async ({ page }) => {
  await page.goto(url("/checkout?type=product&item=Choker%20Necklaces&price=R450"));
  await expect(page.getByText("Choker Necklaces is sold out.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Proceed to Payment" })).toHaveCount(0);
  await page.goto(url("/checkout"));
  await expect(page.getByTestId("checkout-total")).toHaveText("R 200.00");
  await expect(page.getByRole("button", { name: "Proceed to Payment" })).toHaveCount(0);
  await page.goto(url("/checkout?type=membership&item=glow-bee-journey&price=R1"));
  await expect(page.getByTestId("checkout-total")).toContainText("R 450.00");
  await expect(page.getByText("recurring monthly subscription")).toBeVisible();
});

test("a visitor orders candy earrings, pays on the simulator and stock goes down by one", async ({ page }) => {
  expect(await candyStockBadge(page)).toBe("10 LIMITED STOCK!");
  await page.getByRole("link", { name: "Order Now" }).click();
  await expect(page).toHaveURL(/\/checkout\?type=product&item=Candy/);
  await expect(page.getByTestId("checkout-total")).toHaveText("R 350.00");
  await fillCustomer(page);
  // Hold the POST back a moment so the submitting state can be seen.
  await page.route(/\/checkout(\.data)?\?/, async (route) => {
    if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page.getByRole("button", { name: "Creating Checkout..." })).toBeDisabled();
  await expect(page).toHaveURL(/\/payments\/simulator\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("simulator-amount")).toHaveText("R 350.00");
  await page.getByRole("button", { name: "Pay R 350.00" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  await expect(page).toHaveURL(/\/order-confirmation\?status=success&orderId=/);
  await expect(page.getByText("Order Reference")).toBeVisible();
  await expect(page.getByTestId("order-reference")).toHaveText(/^HB-[A-Z2-9]{8}$/);
  await expect(page.getByRole("heading", { name: "What's Next?" })).toBeVisible();
  await expect(page.getByText("Your order will be processed within 1-2 business days.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Continue Shopping" })).toHaveAttribute("href", "/styled-collections");
  await expect(page.getByRole("link", { name: "Back to Home" })).toBeVisible();

  // Anonymous product pages are cached until content_version or stock_version moves (the sale moved stock), which the
  // cache checks every 250 ms.
  await expect.poll(() => candyStockBadge(page)).toBe("9 LIMITED STOCK!");
  // Both emails reached the outbox (without SMTP_URL the delivery pass logs them and keeps them).
  await expect.poll(() => app.output(), { timeout: 15_000 }).toMatch(/kept in outbox #\d+\) to=lerato@example\.com/);
  await expect.poll(() => app.output(), { timeout: 15_000 }).toContain(`to=${OWNER}`);
});

for (const [button, title] of [
  ["Decline", "Payment Failed"],
  ["Cancel", "Payment Failed"],
] as const) {
  test(`${button} on the simulator ends on "${title}" and releases the hold`, async ({ page, context }) => {
    await page.goto(url(CANDY));
    await fillCustomer(page);
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await expect(page).toHaveURL(/\/payments\/simulator\//);
    const other = await context.newPage();
    await expect.poll(() => candyStockBadge(other)).toBe("8 LIMITED STOCK!");
    await page.getByRole("button", { name: button, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`status=${button === "Decline" ? "failed" : "cancelled"}&orderId=`));
    // Try Again offers the same item again (decision 085).
    await expect(page.getByRole("link", { name: "Try Again" })).toHaveAttribute(
      "href",
      "/checkout?type=product&item=Candy+Earrings&retry=1",
    );
    await expect.poll(() => candyStockBadge(other)).toBe("9 LIMITED STOCK!");
  });
}

test("the browser cannot claim success: a pending order stays pending", async ({ page }) => {
  await page.goto(url("/checkout?type=product&item=Test%20Product&price=R5"));
  await fillCustomer(page);
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/simulator\//);
  const orderId = page.url().split("/").pop()!;
  pendingOrderId = orderId;
  await page.goto(url(`/order-confirmation?status=success&orderId=${orderId}`));
  await expect(page.getByRole("heading", { level: 1, name: "Payment Pending" })).toBeVisible();
  await page.goto(url(`/order-confirmation?status=success&orderId=not-an-order`));
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  await expect(page.getByTestId("order-reference")).toHaveText("not-an-order");
});

test("POST /api/webhooks/yoco over HTTP: forged is refused, signed pays the order once", async ({ page, request }) => {
  const { simulatorWebhookSecret } = JSON.parse(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
  const body = JSON.stringify({
    id: "evt_http_1",
    type: "payment.succeeded",
    createdDate: new Date().toISOString(),
    payload: {
      id: "p_http_1",
      type: "payment",
      amount: 500,
      currency: "ZAR",
      status: "succeeded",
      mode: "test",
      metadata: { orderId: pendingOrderId, checkoutId: "ch_http" },
    },
  });
  const now = new Date();
  const headers = (secret: string) => ({
    "content-type": "application/json",
    "webhook-id": "msg_http_1",
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign("msg_http_1", now, body),
  });
  const forged = await request.post(url("/api/webhooks/yoco"), {
    data: body,
    headers: headers(`whsec_${Buffer.from("forged-secret-forged-secret").toString("base64")}`),
  });
  expect(forged.status()).toBe(401);
  const good = await request.post(url("/api/webhooks/yoco"), { data: body, headers: headers(simulatorWebhookSecret) });
  expect(good.status()).toBe(200);
  expect(await good.json()).toEqual({ received: true, outcome: "paid" });
  const again = await request.post(url("/api/webhooks/yoco"), { data: body, headers: headers(simulatorWebhookSecret) });
  expect(await again.json()).toEqual({ received: true, outcome: "duplicate" });
  expect((await request.get(url("/api/webhooks/yoco"))).status()).toBe(405);
  await page.goto(url(`/order-confirmation?status=pending&orderId=${pendingOrderId}`));
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the form posts, shows toasts, and leads through the simulator", async ({ page }) => {
    await page.goto(url("/checkout?type=product&item=Test%20Product&price=R5"));
    await fillCustomer(page, { email: "" });
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await expect(page.getByText("Missing Information")).toBeVisible();
    await expect(page.getByLabel("First Name")).toHaveValue("Lerato");
    await page.getByLabel("Email").fill("lerato@example.com");
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await expect(page).toHaveURL(/\/payments\/simulator\//);
    await expect(page.getByTestId("simulator-amount")).toHaveText("R 5.00");
    await page.getByRole("button", { name: "Pay R 5.00" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  });
});

for (const width of [390, 1280]) {
  test(`checkout and order confirmation pass axe at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const p of [
      CANDY,
      "/checkout",
      "/order-confirmation?status=success&orderId=x",
      "/order-confirmation?status=failed",
      "/order-confirmation",
    ]) {
      await page.goto(url(p));
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const results = await (await axe(page)).analyze();
      expect(results.violations, `${p} at ${width}px`).toEqual([]);
    }
  });
}

test("after the server stops, the database holds one paid candy order, its emails and stock 9", async () => {
  await app.stop();
  const db = new PGlite(path.join(dataDir, "pglite"));
  try {
    const stock = await db.query<{ n: number }>(
      "select stock_quantity as n from catalog_items where slug = 'candy-earrings'",
    );
    expect(stock.rows[0]!.n).toBe(9);
    const candy = await db.query<{ status: string; id: string }>(
      "select status, id from orders where item_name = 'Candy Earrings' order by created_at, status",
    );
    expect(candy.rows.map((r) => r.status).sort()).toEqual(["cancelled", "failed", "paid"]);
    const paid = candy.rows.find((r) => r.status === "paid")!;
    const emails = await db.query<{ dedupe_key: string; to_address: string }>(
      "select dedupe_key, to_address from email_outbox where dedupe_key like $1 order by dedupe_key",
      [`%${paid.id}`],
    );
    expect(emails.rows).toEqual([
      { dedupe_key: `order-confirmation:${paid.id}`, to_address: "lerato@example.com" },
      { dedupe_key: `order-owner-notice:${paid.id}`, to_address: OWNER },
    ]);
    const held = await db.query<{ n: number }>(
      "select count(*)::int as n from stock_holds where status = 'held' and stock_key like 'catalog:%'",
    );
    expect(held.rows[0]!.n).toBe(0);
  } finally {
    await db.close();
  }
});
