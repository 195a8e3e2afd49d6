import { startSmtpSink } from "../fakes/smtp-sink";
import { axe } from "./support/axe";
import { emailedSignInLink } from "./support/member";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 40, slice 1 in the browser: a buyer becomes a Glow Bee member, signs in, and /account says her
 * plan's perks in words, at 390 px, with nothing for axe to find.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const NOW = "2025-09-10T10:00:00+02:00";
const BUYER = "nomvula.perks@example.test";
const SHOTS = "/tmp/pricing-shots";
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

test("a Glow Bee member reads her perks on /account", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url("/membership/glow-bee"));
  await page.getByRole("link", { name: "Choose Plan" }).click();
  await page.getByLabel("First Name").fill("Nomvula");
  await page.getByLabel("Last Name").fill("Dlamini-Hendricks van der Westhuizen");
  await page.getByLabel("Email").fill(BUYER);
  await page.getByLabel("Phone").fill("082 555 0140");
  await page.getByLabel("Address").fill("7 Long Street\nCape Town");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/simulator\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Pay R 350.00" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();

  await page.goto(await emailedSignInLink(page, sink, BUYER, url));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(url("/account"));
  await expect(page.getByTestId("account-perks")).toHaveText("1 free ticket a month for Sip & Style at Nanas.");
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, "/account scrolls sideways at 390 px").toBeLessThanOrEqual(0);
  expect((await (await axe(page)).analyze()).violations).toEqual([]);
  await page.getByRole("heading", { name: "Your plan" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/account-perks-390.png` });
});
