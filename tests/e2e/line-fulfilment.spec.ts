import type { Page } from "@playwright/test";
import { startFakeYoco, type FakeYoco } from "../fakes/yoco-server";
import { startSmtpSink } from "../fakes/smtp-sink";
import { axe } from "./support/axe";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 39: a product line is posted or handed over on its own. A bag of three products is paid once;
 * the owner, on her phone, posts one line (the buyer is emailed about it alone), sees "1 of 3 items
 * sent" on the order and in the list's "To post" filter, then hands the rest over in one press. An
 * instance of its own, so the units bought here change nothing the other specs see.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

let app: Instance;
let yoco: FakeYoco;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const url = (p: string) => `${app.base}${p}`;
const BUYER = "lerato.line-fulfilment@example.test";

test.beforeAll(async () => {
  test.setTimeout(90_000);
  yoco = await startFakeYoco({ secretKey: "sk_live_fake0123456789" });
  sink = await startSmtpSink();
  app = await startInstance({
    DATA_DIR: tempDataDir(),
    APP_NOW: "2025-09-10T10:00:00+02:00",
    YOCO_SECRET_KEY: yoco.secretKey,
    YOCO_WEBHOOK_SECRET: yoco.webhookSecret,
    YOCO_API_BASE: yoco.base,
    OWNER_EMAIL: "owner@example.test",
    SMTP_URL: sink.url,
  });
});
test.afterAll(async () => {
  await app?.stop();
  await yoco?.close();
  await sink?.close();
});

async function expectNoAxeViolations(page: Page) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    expect((await (await axe(page)).analyze()).violations, `axe at ${width}px`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `no sideways scroll at ${width}px`).toBe(
      width,
    );
  }
  await page.setViewportSize({ width: 390, height: 900 });
}

async function addToBag(page: Page, slug: string, name: string, quantity: string) {
  await page.goto(url(`/product/${slug}`));
  await page.getByLabel("Quantity").selectOption(quantity);
  await page.getByRole("button", { name: new RegExp(`^Add to bag\\W+${name}`) }).click();
  await expect(page.getByRole("status").filter({ hasText: `${name} is in your bag.` })).toBeVisible();
}

const partEmails = () => sink.messages.filter((m) => m.to[0] === BUYER && /Part of your Honey Bee order/.test(m.raw));

test("three products paid once: one posted on its own, the rest handed over in one press, the buyer emailed each time", async ({
  page,
  browser,
}) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.route("https://c.yoco.com/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Yoco</title><h1>Pay with Yoco</h1>" }),
  );
  await addToBag(page, "candy-earrings", "Candy Earrings", "2");
  await addToBag(page, "crochet-earrings", "Crochet Earrings", "1");
  await addToBag(page, "beaded-jewellery", "Beaded Jewellery", "1");
  await page.goto(url("/checkout?bag=1"));
  await page.getByLabel("First Name").fill("Lerato Nomakhosazana");
  await page.getByLabel("Last Name").fill("Kgomotso-Fairbairn");
  await page.getByLabel("Email").fill(BUYER);
  await page.getByLabel("Phone").fill("082 555 0144");
  await page.getByLabel("Address").fill("14 Jacaranda Crescent\nMelville\nJohannesburg 2092");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page.getByRole("heading", { name: "Pay with Yoco" })).toBeVisible();
  const checkout = [...yoco.checkouts.values()][0]!;
  const paid = yoco.pay(checkout.id);
  const answer = await fetch(url("/api/webhooks/yoco"), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...paid.headers },
    body: paid.body,
  });
  expect(answer.status).toBe(200);
  const success = new URL(checkout.successUrl!);
  const confirmation = url(`${success.pathname}${success.search}`);
  await page.goto(confirmation);
  await expect(page.getByTestId("order-fulfilment")).toHaveText("Unfulfilled");
  const orderId = success.searchParams.get("orderId")!;

  const ownerContext = await browser.newContext({ viewport: { width: 390, height: 900 } });
  const owner = await ownerContext.newPage();
  await owner.goto(url("/admin/login"));
  await owner.getByLabel("Password").fill("instance-admin-password");
  await owner.getByRole("button", { name: "Sign In" }).click();
  await expect(owner).toHaveURL(/\/admin$/);
  await owner.goto(url(`/admin/orders/${orderId}`));
  const items = owner.getByRole("group", { name: "Items to mark" });
  await expect(items.getByRole("checkbox")).toHaveCount(3);
  await items.getByLabel("Crochet Earrings").uncheck();
  await items.getByLabel("Beaded Jewellery").uncheck();
  await expect(items.getByLabel("Candy Earrings × 2")).toBeChecked();
  await expectNoAxeViolations(owner);
  await owner.screenshot({ path: test.info().outputPath("owner-mark-one-line-390.png"), fullPage: true });
  await owner.getByRole("button", { name: "Yes, mark them and email the customer" }).click();
  await expect(owner.getByText("Marked posted").first()).toBeVisible();
  await expect(owner.getByText("1 of 3 items sent").first()).toBeVisible();
  await expect(owner.getByTestId("line-fulfilment")).toHaveCount(1);
  await expect(owner.getByTestId("line-fulfilment")).toContainText("Candy Earrings × 2");
  await expect(owner.getByTestId("line-fulfilment")).toContainText("Posted");
  await expect(owner.getByText("Marked posted: Candy Earrings × 2")).toBeVisible();
  await expectNoAxeViolations(owner);
  await owner.screenshot({ path: test.info().outputPath("owner-one-line-posted-390.png"), fullPage: true });
  await expect.poll(() => partEmails().length, { timeout: 30_000 }).toBe(1);
  expect(partEmails()[0]!.raw).toContain("Candy Earrings");
  expect(partEmails()[0]!.raw).not.toContain("Beaded Jewellery");

  // The list and its "To post" filter read the summary.
  await owner.goto(url("/admin/orders?status=to-post"));
  await expect(owner.getByText("1 of 3 items sent").filter({ visible: true }).first()).toBeVisible();
  await expectNoAxeViolations(owner);
  await owner.screenshot({ path: test.info().outputPath("owner-orders-to-post-390.png"), fullPage: true });

  await owner.goto(url(`/admin/orders/${orderId}`));
  await expect(items.getByRole("checkbox")).toHaveCount(2);
  await expect(items.getByLabel("Crochet Earrings")).toBeChecked();
  await owner.getByLabel("How the items went").selectOption("collected");
  await owner.getByRole("button", { name: "Yes, mark them and email the customer" }).click();
  await expect(owner.getByText("Marked handed over").first()).toBeVisible();
  await expect(owner.getByRole("definition").filter({ hasText: /^Fulfilled/ })).toBeVisible();
  await expect(owner.getByTestId("line-fulfilment")).toHaveCount(3);
  await expect(owner.getByRole("button", { name: "Yes, mark them and email the customer" })).toHaveCount(0);
  await expect.poll(() => partEmails().length, { timeout: 30_000 }).toBe(2);
  await owner.goto(url("/admin/orders?status=to-post"));
  await expect(owner.getByText("1 of 3 items sent")).toHaveCount(0);
  await ownerContext.close();

  await page.goto(confirmation);
  await expect(page.getByTestId("order-fulfilment")).toHaveText("Fulfilled");
});
