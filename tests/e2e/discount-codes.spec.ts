import type { Page } from "@playwright/test";
import { startFakeYoco, type FakeYoco } from "../fakes/yoco-server";
import { ADMIN_PASSWORD, expectUsableAtPhoneAndLaptop } from "./support/admin";
import { axe } from "./support/axe";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 40, discount codes in the browser: the owner makes LAUNCH20 (20% off products, one use) in
 * /admin/codes on her phone, with field messages for what she types wrong; a buyer types "launch20" on a
 * product's checkout, sees R 350.00 − 20% LAUNCH20 = R 280.00 and pays that through the fake Yoco; the
 * next buyer is told it is used up; the list shows "1 of 1" and the revenue. All at 390 px.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(150_000);

const NOW = "2025-09-10T10:00:00+02:00";
const SHOTS = "/tmp/codes-shots";
const dataDir = tempDataDir();
let app: Instance;
let yoco: FakeYoco;
const url = (p: string) => `${app.base}${p}`;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  yoco = await startFakeYoco();
  app = await startInstance({
    DATA_DIR: dataDir,
    APP_NOW: NOW,
    ADMIN_PASSWORD,
    YOCO_SECRET_KEY: yoco.secretKey,
    YOCO_WEBHOOK_SECRET: yoco.webhookSecret,
    YOCO_API_BASE: yoco.base,
  });
});
test.afterAll(async () => {
  await app?.stop();
  await yoco?.close();
});

/** Yoco's payment page is not reachable from here: the browser lands on a stand-in. */
async function standInForYoco(page: Page) {
  await page.route("https://c.yoco.com/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Yoco</title><h1>Pay with Yoco</h1>" }),
  );
}

async function fillDetails(page: Page, email: string) {
  await page.getByLabel("First Name").fill("Nomvula Kgomotso-Fairbairn");
  await page.getByLabel("Last Name").fill("Mahlangu-Vanderbijlpark");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("082 555 0133");
  await page.getByLabel("Address").fill("14 Jacaranda Crescent\nMelville\nJohannesburg 2092");
}

async function axeCleanAtPhoneAndLaptop(page: Page) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    expect((await (await axe(page)).analyze()).violations, `axe at ${width} px`).toEqual([]);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
  }
}

const webhook = (delivery: { headers: Record<string, string>; body: string }) =>
  fetch(url("/api/webhooks/yoco"), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...delivery.headers },
    body: delivery.body,
  });

test("the owner makes LAUNCH20 at 390 px: wrong input gets field messages, the list shows it in words", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(url("/admin"));

  await page.getByText("Menu", { exact: true }).click();
  await page.getByRole("link", { name: "Discount codes" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Discount codes" })).toBeVisible();
  await page.getByRole("link", { name: "New code" }).click();

  await page.getByLabel("Code", { exact: true }).fill("launch 20");
  await page.getByLabel("Percent off").fill("120");
  await page.getByLabel("Applies to").selectOption("products");
  await page.getByRole("button", { name: "Add code" }).click();
  await expect(page.getByText("2 fields need your attention.")).toBeVisible();
  await expect(page.getByText("Code may use only letters and digits, e.g. LAUNCH20.")).toBeVisible();
  await expect(page.getByText("Percent off must be a whole number from 1 to 100.")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/code-form-errors-390.png`, fullPage: true });

  await page.getByLabel("Code", { exact: true }).fill("launch20");
  await page.getByLabel("Percent off").fill("20");
  await page.getByLabel("Total uses").fill("1");
  await page.getByLabel("Valid from").fill("2025-09-01");
  await page.getByLabel("Valid until").fill("2025-12-31");
  await page.getByRole("button", { name: "Add code" }).click();
  await expect(page).toHaveURL(url("/admin/codes"));
  const card = page.getByRole("list", { name: "Discount codes" }).getByRole("listitem").first();
  await expect(card).toContainText("LAUNCH20");
  await expect(card).toContainText("20% off");
  await expect(card).toContainText("Products");
  await expect(card).toContainText("1 September 2025 to 31 December 2025");
  await expect(card).toContainText("0 of 1");
  await expect(card).toContainText("R 0.00");
  await page.screenshot({ path: `${SHOTS}/codes-list-390.png`, fullPage: true });

  await expectUsableAtPhoneAndLaptop(page, url("/admin/codes"));
  await expectUsableAtPhoneAndLaptop(page, url("/admin/codes/new"));
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url("/admin/codes"));
  await page.getByRole("link", { name: "LAUNCH20" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit LAUNCH20" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/code-edit-390.png`, fullPage: true });
});

test("a buyer types launch20 and pays R 280.00; the next buyer is told it is used up; the list shows 1 of 1", async ({
  page,
  browser,
}) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await standInForYoco(page);
  await page.goto(url("/product/candy-earrings"));
  await page.getByRole("link", { name: "Order Now" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  await page.getByLabel("Discount code").fill("launch2O");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("We don't know the code launch2O. Please check its spelling.")).toBeVisible();
  await page.getByLabel("Discount code").fill("launch20");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("checkout-list-price")).toHaveText("R 350.00");
  await expect(page.getByTestId("checkout-perk")).toContainText("20% LAUNCH20");
  await expect(page.getByTestId("checkout-perk")).toContainText("−R 70.00");
  await expect(page.getByTestId("checkout-total")).toHaveText("R 280.00");
  await expect(page.getByText("The code LAUNCH20 is applied.")).toBeVisible();
  await fillDetails(page, "first.buyer@example.test");
  await axeCleanAtPhoneAndLaptop(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/checkout-code-applied-390.png`, fullPage: true });
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page.getByRole("heading", { name: "Pay with Yoco" })).toBeVisible();

  const created = yoco.requests.filter((r) => r.method === "POST" && r.path === "/api/checkouts");
  expect(created).toHaveLength(1);
  const body = created[0]!.body as {
    amount: number;
    lineItems: { quantity: number; pricingDetails: { price: number } }[];
  };
  expect(body.amount).toBe(28000);
  expect(body.lineItems.reduce((sum, l) => sum + l.quantity * l.pricingDetails.price, 0)).toBe(28000);
  const checkout = [...yoco.checkouts.values()][0]!;
  expect((await webhook(yoco.pay(checkout.id))).status).toBe(200);

  // The next buyer, in a browser of her own, without JavaScript: the code is used up, said in words.
  const next = await browser.newContext({ viewport: { width: 390, height: 900 }, javaScriptEnabled: false });
  const other = await next.newPage();
  await other.goto(url("/product/candy-earrings"));
  await other.getByRole("link", { name: "Order Now" }).click();
  await other.getByLabel("Discount code").fill("LAUNCH20");
  await other.getByRole("button", { name: "Apply" }).click();
  await expect(other.getByText("The code LAUNCH20 has been used up.")).toBeVisible();
  await expect(other.getByTestId("checkout-total")).toHaveText("R 350.00");
  await other.screenshot({ path: `${SHOTS}/checkout-code-used-up-390.png`, fullPage: true });
  await next.close();

  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(url("/admin"));
  await page.goto(url("/admin/codes"));
  const card = page.getByRole("list", { name: "Discount codes" }).getByRole("listitem").first();
  await expect(card).toContainText("1 of 1");
  await expect(card).toContainText("R 280.00");
  await page.screenshot({ path: `${SHOTS}/codes-list-used-390.png`, fullPage: true });
});

test("the bag's checkout takes a code too: each line priced on the page, axe clean at 390 and 1280 px", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(url("/admin"));
  await page.goto(url("/admin/codes/new"));
  await page.getByLabel("Code", { exact: true }).fill("SPRING10");
  await page.getByLabel("Percent off").fill("10");
  await page.getByRole("button", { name: "Add code" }).click();
  await expect(page).toHaveURL(url("/admin/codes"));

  await page.goto(url("/product/candy-earrings"));
  await page.getByRole("button", { name: /^Add to bag\W+Candy Earrings/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "Candy Earrings is in your bag." })).toBeVisible();
  await page.goto(url("/bag"));
  await page.getByRole("link", { name: "Checkout" }).click();
  await page.getByLabel("Discount code").fill("spring10");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("The code SPRING10 is applied.")).toBeVisible();
  await expect(page.getByText("10% SPRING10")).toBeVisible();
  await axeCleanAtPhoneAndLaptop(page);
  await page.screenshot({ path: `${SHOTS}/bag-checkout-code-390.png`, fullPage: true });
});
