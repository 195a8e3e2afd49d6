import type { Page } from "@playwright/test";
import { sendAnalyticsByFetch } from "./support/analytics";
import { axe } from "./support/axe";
import { ADMIN_PASSWORD } from "./support/admin";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test, waitForHydration } from "./support/test";

/*
 * Issue 39: the dashboard's bag funnel. A visitor adds two things to a bag, views it, opens its checkout
 * and pays on the simulator; another adds one thing and leaves. The owner's dashboard shows each step
 * with its share of the one before, beside the spec's Checkout Funnel. An instance of its own, so the
 * counts are exactly these visitors'.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

// Headless Chromium announces itself as "HeadlessChrome", which the endpoint rightly drops as a bot.
const VISITOR_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

let app: Instance;
const url = (p: string) => `${app.base}${p}`;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  app = await startInstance({
    DATA_DIR: tempDataDir(),
    APP_NOW: "2025-09-10T10:00:00+02:00",
    ADMIN_PASSWORD,
  });
});
test.afterAll(async () => {
  await app?.stop();
});

async function addToBag(page: Page, path: string, name: string) {
  await page.goto(url(path));
  // Without JavaScript the form posts and the bag opens, and no event is sent: this visitor has it.
  await waitForHydration(page);
  await page.getByRole("button", { name: new RegExp(`^Add to bag\\W+${name}`) }).click();
  await expect(page.getByRole("status").filter({ hasText: `${name} is in your bag.` })).toBeVisible();
}

/** Waits until the server has stored `n` analytics posts made by this page. */
function countAnalyticsPosts(page: Page) {
  const stored: string[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === "/api/analytics" && response.status() === 204)
      stored.push(response.request().postData() ?? "");
  });
  return (eventType: string) => stored.filter((body) => body.includes(`"eventType":"${eventType}"`)).length;
}

test("the owner sees where bag buyers stop: added, viewed, checkout started, paid", async ({ browser, page }) => {
  const visitor = await browser.newContext({ userAgent: VISITOR_UA });
  await sendAnalyticsByFetch(visitor);
  const buyer = await visitor.newPage();
  const posted = countAnalyticsPosts(buyer);
  await addToBag(buyer, "/product/candy-earrings", "Candy Earrings");
  await addToBag(buyer, "/product/crochet-earrings", "Crochet Earrings");
  await buyer.goto(url("/bag"));
  await waitForHydration(buyer);
  await expect(buyer.getByRole("heading", { level: 1, name: "Your Bag" })).toBeVisible();
  await expect.poll(() => posted("bag_viewed")).toBe(1);
  await buyer.getByRole("link", { name: "Checkout" }).click();
  await expect(buyer).toHaveURL(/\/checkout\?bag=1$/);
  await expect.poll(() => posted("checkout_started")).toBe(1);
  await buyer.getByLabel("First Name").fill("Nomvula");
  await buyer.getByLabel("Last Name").fill("Kgomotso-Fairbairn");
  await buyer.getByLabel("Email").fill("nomvula@example.test");
  await buyer.getByLabel("Phone").fill("082 555 0133");
  await buyer.getByLabel("Address").fill("14 Jacaranda Crescent\nMelville\nJohannesburg 2092");
  await buyer.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(buyer).toHaveURL(/\/payments\/simulator\/[0-9a-f-]{36}$/);
  await buyer.getByRole("button", { name: "Pay R 550.00" }).click();
  await expect(buyer.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  expect(posted("add_to_bag")).toBe(2);

  // A second visitor adds one thing and goes.
  const browsing = await visitor.newPage();
  const browsed = countAnalyticsPosts(browsing);
  await addToBag(browsing, "/product/beaded-jewellery", "Beaded Jewellery");
  await expect.poll(() => browsed("add_to_bag")).toBe(1);
  await visitor.close();

  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  const funnel = page.getByRole("region", { name: "Bag Funnel" });
  await expect(funnel.getByRole("listitem")).toHaveText([
    /^Added to bag\s*3$/,
    /^Bag viewed\s*1 \(33% of previous step\)$/,
    /^Checkout started\s*1 \(100% of previous step\)$/,
    /^Paid\s*1 \(100% of previous step\)$/,
  ]);
  await expect(funnel).toContainText("Bags paid of those added to: 33%");
  // The spec's panel is still there, with its own steps.
  await expect(page.getByRole("region", { name: "Checkout Funnel" }).getByRole("listitem")).toHaveCount(4);

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(url("/admin"));
    await expect(funnel).toBeVisible();
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(sideways, `the dashboard at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
    const results = await (await axe(page)).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    await funnel.scrollIntoViewIfNeeded();
    await funnel.screenshot({ path: test.info().outputPath(`bag-funnel-${width}.png`) });
    await page.screenshot({ path: test.info().outputPath(`dashboard-${width}.png`), fullPage: true });
  }
});
