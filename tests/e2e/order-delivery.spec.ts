import type { Locator, Page } from "@playwright/test";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { axe } from "./support/axe";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 36: after paying, the buyer has what she paid for on screen, on a shop with no mail server.
 * An instance of its own (no SMTP_URL, so every email stays in the outbox), so the seats bought here
 * change nothing the other specs see.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const WORKSHOP_CHECKOUT =
  "/checkout?type=workshop&item=Transform%20Tablecloth%20into%20Wrap%20Around%20Skirt&price=R250";
let app: Instance;
/** The order page of the workshop order, for the fresh browser. */
let orderPage = "";

test.beforeAll(async () => {
  test.setTimeout(90_000);
  app = await startInstance({ DATA_DIR: tempDataDir(), APP_NOW: "2025-09-10T10:00:00+02:00", SMTP_URL: undefined });
});
test.afterAll(async () => {
  await app?.stop();
});

const url = (p: string) => `${app.base}${p}`;

async function fillCustomer(page: Page, email: string) {
  await page.getByLabel("First Name").fill("Nomvula Kgomotso-Fairbairn");
  await page.getByLabel("Last Name").fill("Mahlangu-Vanderbijlpark");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("082 555 0133");
  await page.getByLabel("Address").fill("14 Jacaranda Crescent\nMelville\nJohannesburg 2092");
}

/** What a ticket's QR code says, read from its pixels as a phone camera at the door would. */
async function decodeQr(qr: Locator): Promise<string> {
  const png = PNG.sync.read(await qr.screenshot());
  const code = jsQR(
    new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.byteLength),
    png.width,
    png.height,
  );
  expect(code, "the QR code decodes").not.toBeNull();
  return code!.data;
}

async function expectNoAxeViolations(page: Page) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    expect((await (await axe(page)).analyze()).violations, `axe at ${width}px`).toEqual([]);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `no sideways scroll at ${width}px`,
    ).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize({ width: 390, height: 900 });
}

/** Both tickets: a QR code that opens its own ticket page, when and where, and a calendar file. */
async function expectTwoTickets(page: Page) {
  const cards = page.getByTestId("ticket-card");
  await expect(cards).toHaveCount(2);
  for (const [index, card] of (await cards.all()).entries()) {
    await expect(card.getByText(`${index + 1} of 2`, { exact: true })).toBeVisible();
    await expect(card.getByText("Saturday, 4 October 2025, 10:00 to 13:00")).toBeVisible();
    const ticketLink = await card.getByRole("link", { name: /Open ticket/ }).getAttribute("href");
    expect(ticketLink).toMatch(/^\/ticket\/[A-Za-z0-9_-]{24}$/);
    // The instance's SITE_URL is its default, http://localhost:{port}: the path names the ticket.
    expect(new URL(await decodeQr(card.getByRole("img", { name: /QR code for seat/ }))).pathname).toBe(ticketLink);
    await expect(card.getByRole("link", { name: /Add to calendar/ })).toHaveAttribute("href", `${ticketLink}/calendar`);
    await expect(card.getByTestId("door-code")).toHaveText(/^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
  }
  const doorCodes = await cards.getByTestId("door-code").allTextContents();
  expect(new Set(doorCodes).size, "each seat has its own door code").toBe(2);
}

test("a buyer pays for two workshop seats and sees both tickets with QR codes, then keeps them on her order page", async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url("/workshop/tablecloth-skirt"));
  await expect(page.getByTestId("seats-left")).toHaveText("8 of 8 seats left");
  await page.getByTestId("seats-left").scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("workshop-seats-left-390.png") });

  await page.goto(url(WORKSHOP_CHECKOUT));
  await expect(page.getByLabel("Seats").locator("option")).toHaveText([
    "1 seat, R 250.00",
    "2 seats, R 500.00",
    "3 seats, R 750.00",
  ]);
  await page.getByLabel("Seats").selectOption("2");
  await page.screenshot({ path: testInfo.outputPath("checkout-seats-390.png") });
  await expectNoAxeViolations(page);
  await fillCustomer(page, "nomvula.mahlangu@example.com");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/simulator\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Pay R 500.00" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  await expect(
    page.getByText("Thank you for your purchase. You will receive a confirmation email shortly."),
  ).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Your tickets" })).toBeVisible();
  await expectTwoTickets(page);
  await page.screenshot({ path: testInfo.outputPath("confirmation-tickets-390.png"), fullPage: true });
  await expectNoAxeViolations(page);

  const calendar = await page.request.get(
    url(
      (await page
        .getByRole("link", { name: /Add to calendar/ })
        .first()
        .getAttribute("href"))!,
    ),
  );
  expect(calendar.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
  expect(await calendar.text()).toContain("SUMMARY:Transform Tablecloth into Wrap Around Skirt");

  const ticketHref = (await page
    .getByRole("link", { name: /Open ticket/ })
    .first()
    .getAttribute("href"))!;
  await page.getByRole("link", { name: "Your order page" }).click();
  await expect(page).toHaveURL(/\/order\/[A-Za-z0-9_-]{32}$/);
  orderPage = page.url();
  await expect(page.getByRole("heading", { level: 1, name: "Your order" })).toBeVisible();
  await expectTwoTickets(page);
  await page.screenshot({ path: testInfo.outputPath("order-page-390.png"), fullPage: true });
  await expectNoAxeViolations(page);

  await page.goto(url(ticketHref));
  await expect(
    page.getByRole("heading", { level: 1, name: "Transform Tablecloth into Wrap Around Skirt" }),
  ).toBeVisible();
  await page.goto(url("/workshop/tablecloth-skirt"));
  await expect(page.getByTestId("seats-left")).toHaveText("6 of 8 seats left");
});

test("the order page opens from a fresh browser with the link; a wrong token is a 404", async ({ browser }) => {
  const fresh = await browser.newContext({ viewport: { width: 390, height: 900 } });
  const page = await fresh.newPage();
  const response = await page.goto(orderPage);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["x-robots-tag"]).toBe("noindex");
  await expectTwoTickets(page);

  const token = orderPage.split("/order/")[1]!;
  const wrong = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
  const missing = await page.goto(url(`/order/${wrong}`));
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Order not found" })).toBeVisible();
  expect(await (await page.request.get(url("/robots.txt"))).text()).toContain("Disallow: /order/");
  await fresh.close();
});

test("a member who just paid reaches /account from the confirmation page, signed in", async ({
  page,
  browser,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url("/checkout?type=membership&item=style-starter&price=R150"));
  await fillCustomer(page, "new.member@example.com");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("button", { name: "Pay R 150.00" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  await expect(page.getByText("The Style Starter", { exact: true })).toBeVisible();
  await expect(page.getByText("10 October 2025")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("confirmation-membership-390.png"), fullPage: true });
  await expectNoAxeViolations(page);
  const confirmation = page.url();

  // Another browser with the same confirmation address sees no way in.
  const other = await (await browser.newContext()).newPage();
  await other.goto(confirmation);
  await expect(other.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  await expect(other.getByRole("button", { name: "Go to your account" })).toHaveCount(0);
  await expect(other.getByText("The Style Starter", { exact: true })).toHaveCount(0);
  await other.context().close();

  await page.getByRole("button", { name: "Go to your account" }).click();
  await expect(page).toHaveURL(url("/account"));
  await expect(
    page.getByRole("heading", { level: 1, name: "Hello, Nomvula Kgomotso-Fairbairn Mahlangu-Vanderbijlpark" }),
  ).toBeVisible();
  await expect(page.getByText("Paid until 10 October 2025.")).toBeVisible();
});
