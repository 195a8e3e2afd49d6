import { ADMIN_PASSWORD, expectUsableAtPhoneAndLaptop } from "./support/admin";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 40, discount codes in the browser: the owner makes LAUNCH20 (20% off products, one use) in
 * /admin/codes on her phone, with field messages for what she types wrong, and the list shows it in words.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(150_000);

const NOW = "2025-09-10T10:00:00+02:00";
const SHOTS = "/tmp/codes-shots";
const dataDir = tempDataDir();
let app: Instance;
const url = (p: string) => `${app.base}${p}`;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  app = await startInstance({ DATA_DIR: dataDir, APP_NOW: NOW, ADMIN_PASSWORD });
});
test.afterAll(async () => {
  await app?.stop();
});

test("the owner makes LAUNCH20 at 390 px: wrong input gets field messages, the list shows it in words", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(url("/admin"));

  await page.getByText("Menu", { exact: true }).click();
  await page.getByRole("link", { name: "Discount codes" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Discount codes" })).toBeVisible();
  await page.getByRole("link", { name: "New code" }).click();

  await page.getByLabel("Code", { exact: true }).fill("launch 20");
  await page.getByLabel("Percent off").fill("120");
  await page.getByLabel("Applies to").selectOption("products");
  await page.getByRole("button", { name: "Add code" }).click();
  await expect(page.getByText("2 fields need your attention.")).toBeVisible();
  await expect(page.getByText("Code may use only letters and digits, e.g. LAUNCH20.")).toBeVisible();
  await expect(page.getByText("Percent off must be a whole number from 1 to 100.")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/code-form-errors-390.png`, fullPage: true });

  await page.getByLabel("Code", { exact: true }).fill("launch20");
  await page.getByLabel("Percent off").fill("20");
  await page.getByLabel("Total uses").fill("1");
  await page.getByLabel("Valid from").fill("2025-09-01");
  await page.getByLabel("Valid until").fill("2025-12-31");
  await page.getByRole("button", { name: "Add code" }).click();
  await expect(page).toHaveURL(url("/admin/codes"));
  const card = page.getByRole("list", { name: "Discount codes" }).getByRole("listitem").first();
  await expect(card).toContainText("LAUNCH20");
  await expect(card).toContainText("20% off");
  await expect(card).toContainText("Products");
  await expect(card).toContainText("1 September 2025 to 31 December 2025");
  await expect(card).toContainText("0 of 1");
  await expect(card).toContainText("R 0.00");
  await page.screenshot({ path: `${SHOTS}/codes-list-390.png`, fullPage: true });

  await expectUsableAtPhoneAndLaptop(page, url("/admin/codes"));
  await expectUsableAtPhoneAndLaptop(page, url("/admin/codes/new"));
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url("/admin/codes"));
  await page.getByRole("link", { name: "LAUNCH20" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit LAUNCH20" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/code-edit-390.png`, fullPage: true });
});
