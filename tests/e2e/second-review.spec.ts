import { expectUsableAtPhoneAndLaptop } from "./support/admin";
import { axe } from "./support/axe";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 37 in the browser, on an instance of its own (its checkouts use up this client's budget of
 * unpaid orders, decision 108): a buyer who keeps starting membership checkouts without paying is told
 * what to do, and the owner's orders list, which leaves expired checkouts out by default, stays usable
 * on a phone.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const PASSWORD = "second-review-admin-password";
let app: Instance;
const url = (p: string) => `${app.base}${p}`;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  app = await startInstance({
    DATA_DIR: tempDataDir(),
    APP_NOW: "2025-09-10T10:00:00+02:00",
    ADMIN_PASSWORD: PASSWORD,
  });
});
test.afterAll(async () => {
  await app?.stop();
});

test("the fourth unpaid membership checkout says to finish paying first, readable at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  const checkout = url(`/checkout?${new URLSearchParams({ type: "membership", item: "glow-bee-journey" })}`);
  for (let n = 1; n <= 4; n++) {
    await page.goto(checkout);
    await page.getByLabel("First Name").fill("Nomvuyiswa-Charlotte");
    await page.getByLabel("Last Name").fill(`Vorster-Mahlangu-Oosthuizen ${n}`);
    await page.getByLabel("Email").fill("nomvuyiswa.charlotte.vorster-mahlangu@example.co.za");
    await page.getByLabel("Phone").fill("082 555 0101");
    await page
      .getByLabel("Address")
      .fill("Unit 14B, The Jacarandas\n221 Jan Smuts Avenue\nParktown North, Johannesburg 2193");
    await page.getByRole("button", { name: /Proceed to Payment/ }).click();
    if (n < 4) await expect(page).toHaveURL(/\/payments\/simulator\//);
  }
  const toast = page.getByText(
    "The Glow Bee Journey Membership: 3 are already waiting for payment from you, the most one buyer can hold.",
  );
  await expect(toast).toBeVisible();
  await expect(
    page.getByText("Please finish paying for those first; unpaid checkouts are released after 15 minutes."),
  ).toBeVisible();
  // What the buyer typed is still there.
  await expect(page.getByLabel("Last Name")).toHaveValue("Vorster-Mahlangu-Oosthuizen 4");
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  expect((await (await axe(page)).analyze()).violations.map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath("checkout-hold-refusal-390.png"), fullPage: false });
});

test("the owner's orders list, expired checkouts left out by default, at 390 and 1280 px", async ({ page }) => {
  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expectUsableAtPhoneAndLaptop(page, url("/admin/orders"));
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url("/admin/orders"));
  await expect(page.getByLabel("Status")).toHaveValue("");
  await expect(page.getByLabel("Status").locator("option").first()).toHaveText("Any status but expired");
  await expect(page.getByText("The Glow Bee Journey Membership").locator("visible=true").first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("admin-orders-390.png"), fullPage: true });
});
