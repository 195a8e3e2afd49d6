import { type Browser, type Page } from "@playwright/test";
import { axe } from "./support/axe";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * /styled-collections' sort, with and without JavaScript, and the owner's "New" tick: the badge shows
 * by the app's clock and is gone when the same shop starts 30 days later. On instances of their own
 * (APP_NOW pins the clock), so the shared server's catalog stays as shipped.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(150_000);

const ADMIN_PASSWORD = "collections-admin-password";
const dataDir = tempDataDir();
let app: Instance;
const url = (p: string) => `${app.base}${p}`;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  app = await startInstance({ DATA_DIR: dataDir, APP_NOW: "2026-11-27T10:00:00+02:00", ADMIN_PASSWORD });
});
test.afterAll(async () => {
  await app?.stop();
});

/** Card prices in page order, in cents; "Contact Us" cards are left out. */
async function cardPrices(page: Page): Promise<number[]> {
  const texts = await page.getByTestId("item-card").allTextContents();
  return texts.flatMap((t) => {
    const match = /R ([\d,]+\.\d\d)/.exec(t);
    return match ? [Math.round(Number(match[1]!.replace(/,/g, "")) * 100)] : [];
  });
}

async function ownerPage(browser: Browser): Promise<Page> {
  const owner = await (await browser.newContext({ baseURL: app.base })).newPage();
  await owner.goto("/admin/login");
  await owner.getByLabel("Password").fill(ADMIN_PASSWORD);
  await owner.getByRole("button", { name: "Sign In" }).click();
  await expect(owner).toHaveURL(/\/admin$/);
  return owner;
}

test("the sort works without JavaScript: a Sort button applies the choice", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(url("/styled-collections"));
  const sort = page.getByLabel("Sort by");
  await expect(sort).toHaveValue("price-desc");
  await expect(sort.locator("option")).toHaveText(["Newest", "Price high to low", "Price low to high"]);
  const highFirst = await cardPrices(page);
  expect(highFirst).toEqual([...highFirst].sort((a, b) => b - a));

  await sort.selectOption("price-asc");
  await page.getByRole("button", { name: "Sort" }).click();
  await expect(page).toHaveURL(/\/styled-collections\?sort=price-asc$/);
  await expect(page.getByLabel("Sort by")).toHaveValue("price-asc");
  const lowFirst = await cardPrices(page);
  expect(lowFirst).toEqual([...highFirst].sort((a, b) => a - b));
  await context.close();
});

test("with JavaScript the select applies the sort at once, and the form keeps its button for keyboards", async ({
  page,
}) => {
  await page.goto(url("/styled-collections"));
  await page.getByLabel("Sort by").selectOption("price-asc");
  await expect(page).toHaveURL(/sort=price-asc/);
  const prices = await cardPrices(page);
  expect(prices).toEqual([...prices].sort((a, b) => a - b));
  await expect(page.getByRole("button", { name: "Sort" })).toHaveCount(1);
  // An unknown sort is the page itself.
  await page.goto(url("/styled-collections?sort=cheapest"));
  await expect(page).toHaveURL(/\/styled-collections$/);
});

test("the owner ticks New: the card shows the badge and sorts first under Newest; 30 days later it is gone", async ({
  browser,
  page,
}) => {
  const owner = await ownerPage(browser);
  await owner.goto("/admin/products?q=candy");
  await owner.getByRole("link", { name: "Candy Earrings" }).click();
  const newBox = owner.getByRole("checkbox", { name: "New" });
  await expect(newBox).not.toBeChecked();
  await newBox.check();
  await owner.getByRole("button", { name: "Save product" }).click();
  await expect(owner.getByText("Product saved")).toBeVisible();
  await expect(owner.getByRole("checkbox", { name: "New" })).toBeChecked();
  await expect(owner.getByText(/New until 27 Dec 2026/)).toBeVisible();
  await owner.context().close();

  await page.goto(url("/styled-collections"));
  const candy = page.getByTestId("item-card").filter({ hasText: "Candy Earrings" });
  await expect(candy.getByText("New", { exact: true })).toBeVisible();
  await expect(page.getByTestId("item-card").getByText("New", { exact: true })).toHaveCount(1);
  await page.getByLabel("Sort by").selectOption("newest");
  await expect(page).toHaveURL(/sort=newest/);
  await expect(page.getByTestId("item-card").first()).toContainText("Candy Earrings");

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(url("/styled-collections?sort=newest"));
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
    expect((await (await axe(page)).analyze()).violations).toEqual([]);
    if (width === 390)
      await page.screenshot({ path: test.info().outputPath("styled-collections-390.png"), fullPage: false });
  }

  // The same shop, started 30 days later by its clock.
  await app.stop();
  app = await startInstance({ DATA_DIR: dataDir, APP_NOW: "2026-12-27T10:00:00+02:00", ADMIN_PASSWORD });
  await page.goto(url("/styled-collections"));
  await expect(page.getByTestId("item-card").filter({ hasText: "Candy Earrings" })).toBeVisible();
  await expect(page.getByTestId("item-card").getByText("New", { exact: true })).toHaveCount(0);
  const later = await ownerPage(browser);
  await later.goto("/admin/products?q=candy");
  await later.getByRole("link", { name: "Candy Earrings" }).click();
  await expect(later.getByRole("checkbox", { name: "New" })).not.toBeChecked();
  await later.context().close();
});

test("the product form at 390 px: the New tick, and alt text messages each once by their photo", async ({
  browser,
}) => {
  const owner = await ownerPage(browser);
  await owner.setViewportSize({ width: 390, height: 900 });
  await owner.goto("/admin/products?q=candy");
  await owner.getByRole("link", { name: "Candy Earrings" }).click();
  await expect(owner.getByText(/For example: .Blue shweshwe wrap dress, front view./)).toBeVisible();
  const alts = owner.getByLabel(/^Alt text for photo \d+$/);
  const count = await alts.count();
  expect(count).toBeGreaterThanOrEqual(2);
  for (let i = 0; i < count; i++) await alts.nth(i).fill("");
  await owner.getByRole("button", { name: "Save product" }).click();
  await expect(owner.getByRole("alert").filter({ hasText: `${count} fields need your attention.` })).toBeVisible();
  await expect(owner.getByText("Alt text is required")).toHaveCount(count);
  for (let i = 0; i < count; i++) {
    const alt = owner.getByLabel(`Alt text for photo ${i + 1}`);
    await expect(alt).toHaveAttribute("aria-invalid", "true");
    await expect(alt).toHaveAccessibleDescription(/Alt text is required/);
  }
  const overflow = await owner.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  expect((await (await axe(owner)).analyze()).violations).toEqual([]);
  await owner.screenshot({ path: test.info().outputPath("product-form-390.png"), fullPage: true });
  await owner.context().close();
});
