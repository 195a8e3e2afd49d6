import { type Browser, type Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import { startSmtpSink } from "../fakes/smtp-sink";
import { expectUsableAtPhoneAndLaptop } from "./support/admin";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 20 in the browser, on an instance of its own whose mail goes to an SMTP sink this spec starts:
 * a failed or cancelled payment (the simulator's Decline and Cancel) gives the unit back at once and
 * Try Again reopens checkout for the same item with the buyer's details; the owner finds the order by
 * the buyer's email, marks it fulfilled (the buyer gets the email) and refunds it with a double click.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const PASSWORD = "orders-admin-password";
const BUYER = "lerato@example.test";
let app: Instance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const url = (p: string) => `${app.base}${p}`;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  sink = await startSmtpSink();
  app = await startInstance({
    DATA_DIR: tempDataDir(),
    APP_NOW: "2025-09-10T10:00:00+02:00",
    SMTP_URL: sink.url,
    ADMIN_PASSWORD: PASSWORD,
  });
});
test.afterAll(async () => {
  await app?.stop();
  await sink?.close();
});

/** The units a visitor sees left on the Candy Earrings card ("{n} LIMITED STOCK!"). */
async function candyLeft(page: Page): Promise<number> {
  await page.goto(url("/styled-collections"));
  const card = await page.getByRole("link", { name: /Candy Earrings/ }).textContent();
  return Number(/(\d+) LIMITED STOCK!/.exec(card ?? "")?.[1] ?? NaN);
}

/** Subjects of the messages that reached the sink for one address. */
async function subjectsTo(address: string): Promise<string[]> {
  const mails = await Promise.all(sink.messages.filter((m) => m.to[0] === address).map((m) => simpleParser(m.raw)));
  return mails.map((m) => m.subject ?? "");
}

async function checkoutCandy(page: Page, fill = true) {
  await page.goto(url("/product/candy-earrings"));
  await page.getByRole("link", { name: "Order Now" }).click();
  if (fill) {
    await page.getByLabel("First Name").fill("Lerato");
    await page.getByLabel("Last Name").fill("Khumalo");
    await page.getByLabel("Email").fill(BUYER);
    await page.getByLabel("Phone").fill("082 555 0142");
    await page.getByLabel("Address").fill("9 Rissik Street\nJohannesburg");
  }
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/simulator\//);
}

async function ownerPage(browser: Browser) {
  const owner = await (await browser.newContext()).newPage();
  await owner.goto(url("/admin/login"));
  await owner.getByLabel("Password").fill(PASSWORD);
  await owner.getByRole("button", { name: "Sign In" }).click();
  await expect(owner).toHaveURL(/\/admin$/);
  return owner;
}

test(
  "Decline shows Payment Failed, the unit is back at once, and Try Again reopens checkout for the same item with " +
    "the buyer's details",
  async ({ page }) => {
    const before = await candyLeft(page);
    await checkoutCandy(page);
    await page.getByRole("button", { name: "Decline" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment Failed" })).toBeVisible();
    await page.getByRole("link", { name: "Try Again" }).click();
    await expect(page).toHaveURL(/\/checkout\?type=product&item=Candy\+Earrings/);
    await expect(page.getByText("Candy Earrings").first()).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(BUYER);
    await expect(page.getByLabel("Address")).toHaveValue("9 Rissik Street\nJohannesburg");
    expect(await candyLeft(page)).toBe(before);
  },
);

test("Cancel frees the unit at once", async ({ page }) => {
  const before = await candyLeft(page);
  await checkoutCandy(page);
  expect(await candyLeft(page)).toBe(before - 1);
  await page.goBack();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Failed" })).toBeVisible();
  expect(await candyLeft(page)).toBe(before);
});

test(
  "the owner finds the order by the buyer's email, marks it fulfilled (the buyer is emailed) and refunds it once " +
    "despite a double click",
  async ({ page, browser }) => {
    const before = await candyLeft(page);
    await checkoutCandy(page);
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
    const reference = (await page.getByTestId("order-reference").textContent())!.trim();
    expect(await candyLeft(page)).toBe(before - 1);

    const owner = await ownerPage(browser);
    await owner.goto(url("/admin/orders"));
    await owner.getByLabel("Search").fill(BUYER);
    await owner.getByRole("button", { name: "Filter" }).click();
    await owner.getByRole("link", { name: reference }).click();
    await expect(owner.getByRole("heading", { level: 1, name: `Order ${reference}` })).toBeVisible();

    await owner.getByText("Mark posted or handed over", { exact: true }).click();
    await owner.getByLabel("How", { exact: true }).selectOption({ label: "Posted" });
    await owner.getByRole("button", { name: "Yes, mark it and email the customer" }).click();
    await expect(owner.getByText("Marked posted").first()).toBeVisible();
    await expect
      .poll(async () => (await subjectsTo(BUYER)).some((s) => s.endsWith("is complete")), { timeout: 30_000 })
      .toBe(true);

    await owner.getByText("Refund", { exact: true }).click();
    await owner.getByLabel("Return the item to stock").check();
    const refund = owner.getByRole("button", { name: "Yes, refund through the payment provider" });
    await refund.dblclick();
    await expect(owner.getByText(/Refunded|Refund already requested/).first()).toBeVisible();
    await owner.reload();
    await expect(owner.getByText(/^Refunded R \d[\d,]*\.\d\d on \d{1,2} [A-Z][a-z]{2,3}$/).first()).toBeVisible();
    await expect(owner.getByRole("region", { name: "Refunds" }).getByRole("listitem")).toHaveCount(1);
    expect(await candyLeft(page)).toBe(before);
    await expect
      .poll(
        async () => (await subjectsTo(BUYER)).filter((s) => s.startsWith("Refund for your Honey Bee order")).length,
        {
          timeout: 30_000,
        },
      )
      .toBe(1);
    await owner.context().close();
  },
);

test("the orders list and an order page fit a phone and a laptop, and axe finds nothing", async ({ browser }) => {
  const owner = await ownerPage(browser);
  await owner.goto(url("/admin/orders"));
  const first = owner.getByRole("link", { name: /^HB-/ }).first();
  const href = await first.getAttribute("href");
  for (const path of ["/admin/orders", "/admin/orders?status=refunded", href!])
    await expectUsableAtPhoneAndLaptop(owner, url(path));
  await owner.context().close();
});
