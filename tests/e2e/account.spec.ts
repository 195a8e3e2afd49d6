import { type Page } from "@playwright/test";
import { startSmtpSink } from "../fakes/smtp-sink";
import { expectUsableAtPhoneAndLaptop } from "./support/admin";
import { emailedSignInLink as signInLinkFor } from "./support/member";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 21 in the browser, on an instance of its own whose mail goes to an SMTP sink: a buyer of a
 * membership signs in to /account with the emailed link (once only; refused after 15 minutes, by
 * restarting the instance on the same data with its clock 16 minutes on), renews and cancels there.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const NOW = "2025-09-10T10:00:00+02:00";
const BUYER = "zanele@example.test";
const dataDir = tempDataDir();
let app: Instance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const url = (p: string) => `${app.base}${p}`;

const startApp = (now: string) => startInstance({ DATA_DIR: dataDir, APP_NOW: now, SMTP_URL: sink.url });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  sink = await startSmtpSink();
  app = await startApp(NOW);
});
test.afterAll(async () => {
  await app?.stop();
  await sink?.close();
});

/** Asks /account for a link and returns the link from the newest sign-in email, pointed at this instance. */
async function emailedSignInLink(page: Page): Promise<string> {
  const link = await signInLinkFor(page, sink, BUYER, url);
  await expect(page.getByRole("status")).toContainText(
    `If ${BUYER} belongs to a member, a sign-in link is on its way.`,
  );
  return link;
}

async function payOnSimulator(page: Page, amount: string) {
  await expect(page).toHaveURL(/\/payments\/simulator\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: `Pay ${amount}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
}

test("a buyer becomes a member, signs in with the emailed link, and the same link is refused the second time", async ({
  page,
  browser,
}) => {
  await page.goto(url("/membership/style-starter"));
  await expect(page.getByRole("link", { name: "Manage your membership" })).toHaveAttribute("href", "/account");
  await page.getByRole("link", { name: "Choose Plan" }).click();
  await page.getByLabel("First Name").fill("Zanele");
  await page.getByLabel("Last Name").fill("Mthembu");
  await page.getByLabel("Email").fill(BUYER);
  await page.getByLabel("Phone").fill("082 555 0177");
  await page.getByLabel("Address").fill("12 Jan Smuts Avenue\nJohannesburg");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await payOnSimulator(page, "R 150.00");
  // She also buys earrings: /account lists the shop order and where it stands (issue 39).
  await page.goto(url("/checkout?type=product&item=Crochet%20Earrings&price=R200"));
  await page.getByLabel("First Name").fill("Zanele");
  await page.getByLabel("Last Name").fill("Mthembu");
  await page.getByLabel("Email").fill(BUYER);
  await page.getByLabel("Phone").fill("082 555 0177");
  await page.getByLabel("Address").fill("12 Jan Smuts Avenue\nJohannesburg");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await payOnSimulator(page, "R 200.00");

  await expectUsableAtPhoneAndLaptop(page, url("/account"));
  const link = await emailedSignInLink(page);
  await page.goto(link);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(url("/account"));
  await expect(page.getByRole("heading", { level: 1, name: "Hello, Zanele Mthembu" })).toBeVisible();
  await expect(page.getByText("Paid until 10 October 2025.")).toBeVisible();
  await expect(page.getByRole("link", { name: /^Receipt/ })).toHaveCount(1);
  await expect(page.getByTestId("account-order")).toHaveText([/Crochet Earrings.*Being prepared/]);
  await expectUsableAtPhoneAndLaptop(page, url("/account"));
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: test.info().outputPath("account-shop-orders-390.png"), fullPage: true });

  const other = await (await browser.newContext()).newPage();
  await other.goto(link);
  await expect(other.getByRole("alert")).toContainText("This sign-in link has already been used.");
  await expect(other.getByRole("button", { name: "Email me a sign-in link" })).toBeVisible();
  await other.goto(url("/account"));
  await expect(other.getByRole("heading", { level: 1, name: "Your membership" })).toBeVisible();
  await other.context().close();
});

test("the member renews from /account (paid until moves a month) and then cancels (ends on that day)", async ({
  page,
}) => {
  await page.goto(await emailedSignInLink(page));
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Renew now" }).click();
  await payOnSimulator(page, "R 150.00");
  await page.goto(url("/account"));
  await expect(page.getByText("Paid until 10 November 2025.")).toBeVisible();
  await expect(page.getByRole("link", { name: /^Receipt/ })).toHaveCount(2);

  await page.getByText("Cancel my membership", { exact: true }).click();
  await page.getByRole("button", { name: "Yes, cancel my membership" }).click();
  await expect(page.getByRole("status")).toContainText("Your membership is cancelled. It ends on 10 November 2025");
  await expect(page.getByText("Cancelled: ends on 10 November 2025.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Keep my membership" })).toBeVisible();
});

test("a link is refused 16 minutes after it was sent (the instance restarted with its clock moved on)", async ({
  page,
}) => {
  const link = await emailedSignInLink(page);
  await app.stop();
  app = await startApp("2025-09-10T10:16:00+02:00");
  await page.goto(url(new URL(link).pathname + new URL(link).search));
  await expect(page.getByRole("alert")).toContainText("This sign-in link has expired: links work for 15 minutes.");
  await expect(page.getByRole("button", { name: "Sign in" })).toHaveCount(0);
});
