import { type Page } from "@playwright/test";
import { startSmtpSink } from "../fakes/smtp-sink";
import { expectUsableAtPhoneAndLaptop } from "./support/admin";
import { emailedSignInLink } from "./support/member";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 41 in the browser, with no PayFast keys: a visitor joins a tier through the simulator's card
 * subscription, the instance is restarted with its clock a month on, the next month's charge is run
 * from the simulator's page, and paid-until moves on /account and in the admin; then she cancels
 * from /account and the simulator's subscription is cancelled with it.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

const BUYER = "thandeka.card@example.test";
const ADMIN_PASSWORD = "instance-admin-password";
const dataDir = tempDataDir();
let app: Instance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let simulatorPath = "";
const url = (p: string) => `${app.base}${p}`;
const startApp = (now: string) =>
  startInstance({ DATA_DIR: dataDir, APP_NOW: now, SMTP_URL: sink.url, ADMIN_PASSWORD });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  sink = await startSmtpSink();
  app = await startApp("2025-09-10T10:00:00+02:00");
});
test.afterAll(async () => {
  await app?.stop();
  await sink?.close();
});

async function signIn(page: Page) {
  await page.goto(await emailedSignInLink(page, sink, BUYER, url));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(url("/account"));
}

test("a visitor joins by the simulator's card subscription and sees how she pays", async ({ page }) => {
  await page.goto(url("/membership/style-starter"));
  await expect(page.getByText(/recurring monthly subscription that renews by email reminder/)).toBeVisible();
  await page.getByRole("link", { name: "Choose Plan" }).click();
  await page.getByLabel("First Name").fill("Thandeka");
  await page.getByLabel("Last Name").fill("Mahlangu-Vermeulen");
  await page.getByLabel("Email").fill(BUYER);
  await page.getByLabel("Phone").fill("082 555 0188");
  await page.getByLabel("Address").fill("14 Juta Street\nBraamfontein");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/simulator\/[0-9a-f-]{36}$/);
  simulatorPath = new URL(page.url()).pathname;
  await page.getByRole("button", { name: "Subscribe: R 150.00 a month" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  await expect(page.getByText(/Your card is charged each month; we email you 3 days before each charge/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Open the payment simulator" })).toHaveAttribute("href", simulatorPath);

  await signIn(page);
  await expect(page.getByTestId("account-paid-until")).toHaveText("10 October 2025");
  await expect(page.getByTestId("account-pays")).toHaveText("Card, renews 10 Oct");
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: "test-results/card-subscription-account-390.png", fullPage: true });
  await expectUsableAtPhoneAndLaptop(page, url("/account"));
});

test("a month on, the simulator runs the next charge: paid-until moves on /account and in the admin", async ({
  page,
}) => {
  await app.stop();
  app = await startApp("2025-10-10T08:00:00+02:00");
  await page.goto(url(simulatorPath));
  await expect(page.getByTestId("simulator-subscription-status")).toHaveText("active");
  await expect(page.getByTestId("simulator-paid-until")).toHaveText("10 October 2025");
  await page.getByRole("button", { name: "Run next month's charge" }).click();
  await expect(page.getByRole("status")).toHaveText("Charged R 150.00. The membership is paid until 10 November 2025.");
  await expect(page.getByTestId("simulator-paid-until")).toHaveText("10 November 2025");
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: "test-results/card-subscription-simulator-390.png", fullPage: true });
  await expectUsableAtPhoneAndLaptop(page, url(simulatorPath));

  await signIn(page);
  await expect(page.getByTestId("account-paid-until")).toHaveText("10 November 2025");
  await expect(page.getByTestId("account-pays")).toHaveText("Card, renews 10 Nov");
  await expect(page.getByRole("link", { name: /^Receipt/ })).toHaveCount(2);

  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(url("/admin"));
  await page.goto(url(`/admin/members?q=${encodeURIComponent(BUYER)}`));
  const row = page.getByRole("row", { name: /Thandeka Mahlangu-Vermeulen/ });
  await expect(row).toContainText("Card, renews 10 Nov");
  await row.getByRole("link", { name: "Thandeka Mahlangu-Vermeulen" }).click();
  await expect(page.getByTestId("member-paid-until")).toHaveText("10 November 2025");
  await expect(page.getByTestId("member-pays")).toHaveText("Card, renews 10 Nov");
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: "test-results/card-subscription-admin-member-390.png", fullPage: true });
});

test("she cancels from /account: the subscription ends at the simulator, her paid month stays", async ({ page }) => {
  await signIn(page);
  await page.getByText("Cancel my membership", { exact: true }).click();
  await expect(page.getByText("your card is not charged again")).toBeVisible();
  await page.getByRole("button", { name: "Yes, cancel my membership" }).click();
  await expect(page.getByRole("status")).toContainText("Your membership is cancelled. It ends on 10 November 2025");
  await page.goto(url(simulatorPath));
  await expect(page.getByTestId("simulator-subscription-status")).toHaveText("cancelled");
  await expect(page.getByRole("button", { name: "Run next month's charge" })).toHaveCount(0);
});
