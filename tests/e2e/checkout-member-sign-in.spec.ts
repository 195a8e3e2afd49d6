import type { Page } from "@playwright/test";
import { startSmtpSink } from "../fakes/smtp-sink";
import { axe } from "./support/axe";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { newestSignInLink } from "./support/member";
import { expect, test } from "./support/test";

/*
 * Issue 40: "Member? Sign in for your price" on the one-item and the bag checkout. A Glow Bee member who
 * is not signed in asks for her link from the checkout; it signs her in and brings her back to the same
 * checkout, her bag as she left it, priced for her plan. At 390 px, axe clean, and without JavaScript.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(150_000);

const NOW = "2025-09-10T10:00:00+02:00";
const MEMBER = "nomvula.signin@example.test";
const SHOTS = "/tmp/perks3-shots";
const EARLY_BIRD = `/checkout?${new URLSearchParams({ type: "ticket", item: "Sip & Style at Nanas - Early Bird" })}`;
const dataDir = tempDataDir();
let app: Instance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const url = (p: string) => `${app.base}${p}`;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  sink = await startSmtpSink();
  app = await startInstance({ DATA_DIR: dataDir, APP_NOW: NOW, SMTP_URL: sink.url });
});
test.afterAll(async () => {
  await app?.stop();
  await sink?.close();
});

async function noSidewaysScrollAndAxeClean(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, "the page scrolls sideways at 390 px").toBeLessThanOrEqual(0);
  expect((await (await axe(page)).analyze()).violations).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });
  expect((await (await axe(page)).analyze()).violations).toEqual([]);
  await page.setViewportSize({ width: 390, height: 900 });
}

/** The link in the newest sign-in email to `to` that arrived after `before` messages, on this instance. */
function emailedLink(to: string, before: number): Promise<string> {
  return newestSignInLink(sink, to, before, url, /https?:\/\/\S+\/account\/sign-in\?\S+/);
}

test("one item: the member asks from the checkout and comes back to it signed in, at her price", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url("/membership/glow-bee"));
  await page.getByRole("link", { name: "Choose Plan" }).click();
  await page.getByLabel("First Name").fill("Nomvula");
  await page.getByLabel("Last Name").fill("Dlamini-Hendricks van der Westhuizen");
  await page.getByLabel("Email").fill(MEMBER);
  await page.getByLabel("Phone").fill("082 555 0150");
  await page.getByLabel("Address").fill("7 Long Street\nCape Town");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("button", { name: "Pay R 350.00" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();

  await page.goto(url(EARLY_BIRD));
  await expect(page.getByTestId("checkout-total")).toHaveText("R 350.00");
  const offer = page.getByRole("link", { name: "Member? Sign in for your price" });
  await expect(offer).toBeVisible();
  await noSidewaysScrollAndAxeClean(page);
  await page.screenshot({ path: `${SHOTS}/checkout-sign-in-offer-390.png`, fullPage: true });

  await offer.click();
  await expect(page.getByRole("heading", { level: 1, name: "Member? Sign in for your price" })).toBeVisible();
  await noSidewaysScrollAndAxeClean(page);
  await page.getByRole("textbox", { name: "Email" }).fill(MEMBER);
  const before = sink.messages.length;
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("status")).toContainText(
    `If ${MEMBER} belongs to a member, a sign-in link is on its way.`,
  );
  await noSidewaysScrollAndAxeClean(page);
  await page.screenshot({ path: `${SHOTS}/checkout-sign-in-sent-390.png`, fullPage: true });

  await page.goto(await emailedLink(MEMBER, before));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(url(EARLY_BIRD));
  await expect(page.getByTestId("checkout-perk")).toContainText("Glow Bee: free ticket, 1 of 1 this month");
  await expect(page.getByTestId("checkout-total")).toHaveText("R 0.00");
  await expect(page.getByRole("button", { name: "Confirm free order" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Member? Sign in for your price" })).toHaveCount(0);
});

test("the bag, without JavaScript: the link returns to /checkout?bag=1 with the bag kept and priced", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 900 } });
  const page = await context.newPage();
  await page.goto(url("/product/candy-earrings"));
  await page.getByRole("button", { name: /^Add to bag\W+Candy Earrings/ }).click();
  await page.goto(url("/tickets/sip-style"));
  await page
    .getByRole("listitem")
    .filter({ hasText: "Early Bird" })
    .getByRole("button", { name: /Add to bag/ })
    .click();
  await expect(page.getByTestId("bag-line")).toHaveCount(2);

  await page.getByRole("link", { name: "Checkout" }).click();
  await expect(page.getByTestId("checkout-total")).toHaveText("R 700.00");
  await expect(page.getByRole("button", { name: "Proceed to Payment" })).toBeVisible();
  await page.getByRole("link", { name: "Member? Sign in for your price" }).click();
  await page.getByRole("textbox", { name: "Email" }).fill(MEMBER);
  const before = sink.messages.length;
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("status")).toContainText("a sign-in link is on its way");
  await page.getByRole("link", { name: "Back to your checkout" }).click();
  await expect(page).toHaveURL(url("/checkout?bag=1"));

  await page.goto(await emailedLink(MEMBER, before));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(url("/checkout?bag=1"));
  await expect(page.getByTestId("summary-perk")).toHaveText("Glow Bee: free ticket, 1 of 1 this month");
  await expect(page.getByTestId("checkout-total")).toHaveText("R 350.00");
  await page.screenshot({ path: `${SHOTS}/checkout-bag-after-sign-in-390.png`, fullPage: true });
  await page.goto(url("/bag"));
  await expect(page.getByTestId("bag-line")).toHaveCount(2);
  await context.close();
});
