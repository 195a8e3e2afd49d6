import { startFakeYoco, type FakeYoco } from "../fakes/yoco-server";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Against the fake Yoco on 127.0.0.1: a buyer returns from Yoco's page through its failure address
 * (the unit goes back on sale), another buyer takes the last unit and pays, and then the first payment
 * arrives after all. The order is paid but needs attention, the stock is 0 (never negative), and the
 * owner sees it flagged on the dashboard and on the order page with the refund ready.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const PASSWORD = "late-payment-password";
let app: Instance;
let yoco: FakeYoco;
const url = (p: string) => `${app.base}${p}`;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  yoco = await startFakeYoco({ secretKey: "sk_live_fake0123456789" });
  app = await startInstance({
    DATA_DIR: tempDataDir(),
    APP_NOW: "2025-09-10T10:00:00+02:00",
    ADMIN_PASSWORD: PASSWORD,
    YOCO_SECRET_KEY: yoco.secretKey,
    YOCO_WEBHOOK_SECRET: yoco.webhookSecret,
    YOCO_API_BASE: yoco.base,
  });
});
test.afterAll(async () => {
  await app?.stop();
  await yoco?.close();
});

/** A buyer's checkout form post: answers with the fake Yoco's checkout id (the payment page itself is Yoco's). */
async function startCheckout(buyer: string): Promise<string> {
  const response = await fetch(url(`/checkout?type=product&item=Crochet+Earrings`), {
    method: "POST",
    redirect: "manual",
    headers: { Origin: app.base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      type: "product",
      item: "Crochet Earrings",
      firstName: buyer,
      lastName: "Buyer",
      email: `${buyer}@example.test`,
      phone: "0825550100",
      address: "1 Long Street",
    }),
  });
  expect(response.status).toBe(302);
  return response.headers.get("location")!.split("/").pop()!;
}

const webhook = (delivery: { headers: Record<string, string>; body: string }) =>
  fetch(url("/api/webhooks/yoco"), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...delivery.headers },
    body: delivery.body,
  });

test("a payment that arrives after the last unit was sold is paid but needs attention, with no negative stock", async ({
  page,
  browser,
}) => {
  // Only one pair left.
  const owner = await (await browser.newContext()).newPage();
  await owner.goto(url("/admin/login"));
  await owner.getByLabel("Password").fill(PASSWORD);
  await owner.getByRole("button", { name: "Sign In" }).click();
  await expect(owner).toHaveURL(/\/admin$/);
  await owner.goto(url("/admin/products?q=crochet"));
  await owner.getByRole("link", { name: "Crochet Earrings" }).click();
  await owner.getByLabel("Stock").fill("1");
  await owner.getByRole("button", { name: "Save product" }).click();
  await expect(owner.getByText("Product saved")).toBeVisible();

  const late = await startCheckout("late");
  const lateOrder = yoco.checkouts.get(late)!.metadata.orderId!;
  await page.goto(url(`/order-confirmation?status=failed&orderId=${lateOrder}`));
  await expect(page.getByRole("heading", { level: 1, name: "Payment Failed" })).toBeVisible();

  const other = await startCheckout("other");
  expect((await webhook(yoco.pay(other))).status).toBe(200);
  await page.goto(url("/styled-collections"));
  // A sold-out card is not a link (the spec): it is dimmed and says SOLD OUT.
  await expect(page.getByTestId("item-card").filter({ hasText: "Crochet Earrings" })).toContainText("SOLD OUT");

  expect((await webhook(yoco.pay(late))).status).toBe(200);
  await page.goto(url("/styled-collections"));
  // A sold-out card is not a link (the spec): it is dimmed and says SOLD OUT.
  await expect(page.getByTestId("item-card").filter({ hasText: "Crochet Earrings" })).toContainText("SOLD OUT");

  await owner.goto(url("/admin"));
  const flagged = owner.getByRole("region", { name: "To do today" });
  await expect(flagged).toContainText("1 order needs attention");
  await expect(flagged).toContainText("Crochet Earrings");
  await flagged.getByRole("link", { name: /^HB-/ }).first().click();
  await expect(owner.getByRole("alert").filter({ hasText: "Needs attention" })).toContainText(
    "last unit had been sold",
  );
  await expect(owner.getByRole("button", { name: "Yes, refund through the payment provider" })).toBeVisible();
  await owner.goto(url("/admin/products?q=crochet"));
  await expect(owner.getByRole("cell", { name: "Sold out" })).toBeVisible();
  await owner.context().close();
});
