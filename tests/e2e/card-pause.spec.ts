import { type Page } from "@playwright/test";
import { startSmtpSink } from "../fakes/smtp-sink";
import { expectUsableAtPhoneAndLaptop } from "./support/admin";
import { emailedSignInLink } from "./support/member";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 41, pause and resume (decision 130), in the browser with no PayFast keys: a member joins by the
 * simulator's card subscription; the owner pauses her card charges for two months from her page at
 * phone width, sees "Paused until …" there, on /admin/members and on the member's /account, and resumes.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const BUYER = "nokuthula.pause@example.test";
const NAME = "Nokuthula Precious Mahlangu-Vermeulen";
const ADMIN_PASSWORD = "instance-admin-password";
const dataDir = tempDataDir();
let app: Instance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let memberPath = "";
const url = (p: string) => `${app.base}${p}`;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  sink = await startSmtpSink();
  app = await startInstance({
    DATA_DIR: dataDir,
    APP_NOW: "2025-09-10T10:00:00+02:00",
    SMTP_URL: sink.url,
    ADMIN_PASSWORD,
  });
});
test.afterAll(async () => {
  await app?.stop();
  await sink?.close();
});

async function adminSignIn(page: Page) {
  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(url("/admin"));
}

test("the owner pauses a member's card charges for two months from her page", async ({ page }) => {
  await page.goto(url("/membership/style-starter"));
  await page.getByRole("link", { name: "Choose Plan" }).click();
  await page.getByLabel("First Name").fill("Nokuthula Precious");
  await page.getByLabel("Last Name").fill("Mahlangu-Vermeulen");
  await page.getByLabel("Email").fill(BUYER);
  await page.getByLabel("Phone").fill("082 555 0177");
  await page.getByLabel("Address").fill("14 Juta Street\nBraamfontein");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("button", { name: "Subscribe: R 150.00 a month" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();

  await adminSignIn(page);
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url(`/admin/members?q=${encodeURIComponent(BUYER)}`));
  // At 390 px the list is cards, not a table.
  await page.getByRole("listitem").getByRole("link", { name: NAME }).click();
  await expect(page).toHaveURL(/\/admin\/members\/\d+$/);
  memberPath = new URL(page.url()).pathname;
  await expect(page.getByTestId("member-pays")).toHaveText("Card, renews 10 Oct");

  await page.getByText("Pause card charges", { exact: true }).click();
  await expect(page.getByText(/She keeps her membership until 10 October 2025/)).toBeVisible();
  await page.getByRole("button", { name: "Yes, pause her card charges" }).click();
  await expect(page.getByText("Choose how long to pause: one, two or three months.")).toBeVisible();
  await page.getByRole("group", { name: "How long" }).getByLabel("2 months").check();
  await page.getByRole("button", { name: "Yes, pause her card charges" }).click();
  await expect(page.getByRole("status")).toContainText(`${NAME} is not charged until 10 December 2025`);
  await expect(page.getByTestId("member-pays")).toHaveText("Paused until 10 Dec");
  await expect(page.getByTestId("member-paused-until")).toContainText("Paused until 10 December 2025");
  await expect(page.getByText("Pause card charges", { exact: true })).toHaveCount(0);
  await page.getByText("Resume card charges", { exact: true }).click();
  await page.screenshot({ path: "test-results/card-pause-admin-member-390.png", fullPage: true });
  await expectUsableAtPhoneAndLaptop(page, url(memberPath));

  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url(`/admin/members?q=${encodeURIComponent(BUYER)}`));
  await expect(page.getByRole("listitem").filter({ hasText: NAME })).toContainText("Paused until 10 Dec");
  // Paused, she pays nothing this month: out of the monthly recurring revenue; the chart counts her join.
  await expect(page.getByTestId("members-mrr")).toHaveText("R 0.00");
  const byMonth = page.getByRole("table", { name: "Members joined, renewed and lapsed per month" });
  await expect(byMonth.getByRole("row", { name: /^Sep 2025/ })).toHaveText(/Sep 2025\s*1\s*0\s*0/);
  await page.screenshot({ path: "test-results/card-pause-admin-members-390.png", fullPage: true });
  await expectUsableAtPhoneAndLaptop(page, url(`/admin/members?q=${encodeURIComponent(BUYER)}`));

  await page.goto(url("/admin/activity"));
  await expect(page.getByText(`Paused the card charges of ${NAME} (${BUYER}) for 2 months`)).toBeVisible();
});

test("she sees the pause on /account; the owner resumes and her card renews on paid-until again", async ({ page }) => {
  await page.goto(await emailedSignInLink(page, sink, BUYER, url));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(url("/account"));
  await expect(page.getByTestId("account-pays")).toHaveText("Paused until 10 Dec");
  await expect(page.getByText(/Paused until 10 December 2025\./)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: "test-results/card-pause-account-390.png", fullPage: true });
  await expectUsableAtPhoneAndLaptop(page, url("/account"));

  await adminSignIn(page);
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url(memberPath));
  await page.getByText("Resume card charges", { exact: true }).click();
  await page.getByRole("button", { name: "Yes, resume her card charges" }).click();
  await expect(page.getByRole("status")).toContainText("Card charges resumed");
  await expect(page.getByTestId("member-pays")).toHaveText("Card, renews 10 Oct");
  await expect(page.getByTestId("member-paused-until")).toHaveCount(0);
  await expect(page.getByText("Pause card charges", { exact: true })).toBeVisible();
});
