import { startFakePayfast, type FakePayfast } from "../fakes/payfast-server";
import { expectUsableAtPhoneAndLaptop } from "./support/admin";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 41 with PayFast keys, over real HTTP: an instance configured for the fake PayFast (its process,
 * validate and API URLs, notifications accepted from 127.0.0.1 only). The tier page promises a card
 * charge; the buyer's browser posts our signed form to PayFast, pays there, PayFast's notification
 * reaches /api/payfast/itn (and is validated) before she is sent back, and she is a member paying by card.
 */
test.setTimeout(120_000);

let fake: FakePayfast;
let app: Instance;
/** The site as SITE_URL names it by default (http://localhost:PORT), so PayFast's return lands on the buyer's cookies. */
const site = (path: string) => `${app.base.replace("127.0.0.1", "localhost")}${path}`;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  fake = await startFakePayfast();
  app = await startInstance({
    DATA_DIR: tempDataDir(),
    APP_NOW: "2025-09-10T10:00:00+02:00",
    PAYFAST_MERCHANT_ID: fake.merchantId,
    PAYFAST_MERCHANT_KEY: fake.merchantKey,
    PAYFAST_PASSPHRASE: fake.passphrase,
    PAYFAST_PROCESS_URL: fake.processUrl,
    PAYFAST_VALIDATE_URL: fake.validateUrl,
    PAYFAST_API_URL: fake.apiUrl,
    PAYFAST_ITN_SOURCES: "127.0.0.1/32",
  });
});
test.afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

test("a membership is bought as a PayFast subscription, its first notification verified before she returns", async ({
  page,
}) => {
  await page.goto(site("/membership/glow-bee-journey"));
  await expect(page.getByText(/recurring monthly subscription, charged to your card each month/)).toBeVisible();
  await page.getByRole("link", { name: "Choose Plan" }).click();
  await page.getByLabel("First Name").fill("Nomvula");
  await page.getByLabel("Last Name").fill("van der Merwe-Dlamini");
  await page.getByLabel("Email").fill("nomvula.payfast@example.test");
  await page.getByLabel("Phone").fill("082 555 0166");
  await page.getByLabel("Address").fill("7 Loop Street\nCape Town");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();

  await expect(page).toHaveURL(/\/payments\/payfast\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: "Pay with PayFast" })).toBeVisible();
  await expect(page.getByText("Your card is charged R 450.00 today and the same amount every month")).toBeVisible();
  const checkoutPath = new URL(page.url()).pathname;
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: "test-results/payfast-checkout-390.png", fullPage: true });
  await expectUsableAtPhoneAndLaptop(page, site(checkoutPath));

  await page.getByRole("button", { name: "Continue to PayFast" }).click();
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  await expect(page.getByText(/Your card is charged each month/)).toBeVisible();

  const [itn] = fake.itns;
  expect(itn?.answers).toEqual([200]);
  const [subscription] = fake.subscriptions.values();
  expect(subscription).toMatchObject({ amountCents: 45000, statusText: "ACTIVE", runDate: "2025-10-10" });
  // The notification was confirmed with PayFast's validate endpoint, and the run date read through the API.
  expect(fake.apiCalls.map((c) => `${c.action} ${c.status}`)).toContain("fetch 200");

  // The checkout page is spent: nothing can be paid twice from it.
  await page.goto(site(checkoutPath));
  await expect(page.getByRole("heading", { level: 1, name: "Payment not found" })).toBeVisible();
});
