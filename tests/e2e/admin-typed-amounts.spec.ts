import fs from "node:fs";
import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD, signInAsOwner } from "./support/admin";
import { axe } from "./support/axe";
import { expect, test } from "./support/test";

/*
 * Issue 36, "Money is read the way people type it" (decision 103): the owner on her phone (390 px)
 * types a price every way a South African writes one; the product page shows what she meant. A
 * malformed price is refused beside the field and changes nothing; a tenfold change asks first,
 * with JavaScript and without.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const NAME = "Mama Thandi's Reclaimed Shweshwe Wrap Dress With Deep Pockets and a Hand-Stitched Hem";
const SHOTS = "/tmp/money-shots";
let editPath = "";
let productPath = "";

const priceField = (page: Page) => page.getByLabel("Price (R)", { exact: true });
const preview = (page: Page) => page.locator("#field-price-preview");
const shownPrice = async (page: Page) => {
  await page.goto(productPath);
  return page.locator("h1 + p").innerText();
};

async function noSidewaysScrollAndNoAxeFindings(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, "the edit form scrolls sideways at 390 px").toBeLessThanOrEqual(0);
  const results = await (await axe(page)).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("every way of writing a price saves what a South African means", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await signInAsOwner(page);
  await page.goto("/admin/products/new");
  await page.getByLabel("Name", { exact: true }).fill(NAME);
  await priceField(page).fill("650,00");
  await expect(preview(page)).toHaveText("Saves as R 650.00");
  await page.getByLabel("Description").fill("A wrap dress cut from reclaimed shweshwe, with deep pockets.");
  fs.mkdirSync(SHOTS, { recursive: true });
  await priceField(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/product-new-preview-390.png` });
  await noSidewaysScrollAndNoAxeFindings(page);
  await page.getByRole("button", { name: "Add product" }).click();
  await expect(page.getByText("Product added")).toBeVisible();
  editPath = new URL(page.url()).pathname;
  expect(editPath).toMatch(/^\/admin\/products\/\d+$/);
  productPath = (await page.getByRole("link", { name: "View in shop" }).getAttribute("href"))!;
  expect(await shownPrice(page)).toBe("R 650.00");

  // In an order that never moves the price tenfold, so each saves at once.
  const writings: [string, string][] = [
    ["650", "R 650.00"],
    ["650.00", "R 650.00"],
    ["R650", "R 650.00"],
    ["R 650,50", "R 650.50"],
    ["1 500", "R 1,500.00"],
    ["1 500,50", "R 1,500.50"],
    ["1,500", "R 1,500.00"],
    ["1,500.50", "R 1,500.50"],
    ["1.500,25", "R 1,500.25"],
    ["R\u00a01\u202f250,75", "R 1,250.75"],
    ["650,00", "R 650.00"],
  ];
  for (const [typed, shown] of writings) {
    await page.goto(editPath);
    await priceField(page).fill(typed);
    await expect(preview(page), typed).toHaveText(`Saves as ${shown}`);
    await page.getByRole("button", { name: "Save product" }).click();
    await expect(page.getByText("Product saved")).toBeVisible();
    expect(await shownPrice(page), typed).toBe(shown);
  }
});

test("6,5,0 is refused beside the field and nothing changes", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await signInAsOwner(page);
  await page.goto(editPath);
  await priceField(page).fill("6,5,0");
  const message =
    "Price has a separator in the wrong place: group thousands in threes (1 500 or 1,500) and put the cents after one " +
    "comma or dot (650,50).";
  await expect(preview(page)).toHaveText(message);
  await page.getByRole("button", { name: "Save product" }).click();
  await expect(page.locator("#field-price-error")).toHaveText(message);
  await expect(priceField(page)).toHaveAttribute("aria-invalid", "true");
  await expect(priceField(page)).toHaveValue("6,5,0");
  await expect(page.getByText("One field needs your attention.")).toBeVisible();
  expect(await shownPrice(page)).toBe("R 650.00");
});

test("a tenfold change asks first; saving again with the confirmation saves", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await signInAsOwner(page);
  await page.goto(editPath);
  await priceField(page).fill("6 500");
  await expect(preview(page)).toHaveText("Saves as R 6,500.00");
  await page.getByRole("button", { name: "Save product" }).click();
  await expect(page.locator("#field-price-error")).toHaveText(
    "R 6,500.00 is 10 times the current R 650.00. Save again to confirm.",
  );
  const confirm = page.getByLabel("Yes, the new price is R 6,500.00");
  await expect(confirm).toBeChecked();
  await priceField(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/product-edit-tenfold-390.png` });
  await noSidewaysScrollAndNoAxeFindings(page);

  // Another amount is another question: the box goes until the server asks about it.
  await priceField(page).fill("65 000");
  await expect(confirm).toHaveCount(0);
  await priceField(page).fill("6 500");
  await expect(confirm).toBeChecked();
  await page.getByRole("button", { name: "Save product" }).click();
  await expect(page.getByText("Product saved")).toBeVisible();
  expect(await shownPrice(page)).toBe("R 6,500.00");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the server's answer shows the amount and the question, and the second save confirms", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 900 });
    await page.goto("/admin/login");
    await page.getByLabel("Password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.goto(editPath);
    await expect(preview(page)).toHaveText("Saves as R 6,500.00");
    await priceField(page).fill("650,00");
    await page.getByRole("button", { name: "Save product" }).click();
    await expect(page.locator("#field-price-error")).toHaveText(
      "R 650.00 is a tenth of the current R 6,500.00. Save again to confirm.",
    );
    await expect(preview(page)).toHaveText("Saves as R 650.00");
    await expect(page.getByLabel("Yes, the new price is R 650.00")).toBeChecked();
    const shop = await page.context().newPage();
    expect(await shownPrice(shop)).toBe("R 6,500.00");
    await page.getByRole("button", { name: "Save product" }).click();
    await expect(page.getByText("Product saved")).toBeVisible();
    expect(await shownPrice(page)).toBe("R 650.00");
  });
});

test("a ticket option and a membership plan show what they will save, and fit a phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await signInAsOwner(page);
  await page.goto("/admin/events/sip-style");
  const ticketPrice = page.locator("#field-option\\.0\\.price");
  await expect(page.locator("#field-option\\.0\\.price-preview")).toHaveText(/^Saves as R \d/);
  await ticketPrice.fill("1 250,5");
  await expect(page.locator("#field-option\\.0\\.price-preview")).toHaveText("Saves as R 1,250.50");
  await ticketPrice.evaluate((el) => el.scrollIntoView({ block: "center" }));
  await page.screenshot({ path: `${SHOTS}/event-option-390.png` });
  await noSidewaysScrollAndNoAxeFindings(page);

  await page.goto("/admin/memberships");
  await page.locator("#tier-style-starter > summary").click();
  const tierPrice = page.locator("#tier-style-starter-price");
  await tierPrice.fill("R 175,5");
  await expect(page.locator("#tier-style-starter-price-preview")).toHaveText("Saves as R 175.50");
  await tierPrice.fill("17,5,0");
  await expect(page.locator("#tier-style-starter-price-preview")).toHaveText(
    /^Price has a separator in the wrong place/,
  );
  await tierPrice.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/tier-390.png` });
  await noSidewaysScrollAndNoAxeFindings(page);
});

test("a refund amount is read the same way: 6,5,0 is refused, 100,50 refunds R 100.50", async ({ page, browser }) => {
  const buyer = await (await browser.newContext()).newPage();
  await buyer.goto(productPath);
  await buyer.getByRole("link", { name: "Order Now" }).click();
  await buyer.getByLabel("First Name").fill("Naledi");
  await buyer.getByLabel("Last Name").fill("Sithole");
  await buyer.getByLabel("Email").fill("naledi.amounts@example.test");
  await buyer.getByLabel("Phone").fill("082 555 0177");
  await buyer.getByLabel("Address").fill("3 Juta Street\nBraamfontein");
  await buyer.getByRole("button", { name: "Proceed to Payment" }).click();
  await buyer.getByRole("button", { name: "Pay R 650.00" }).click();
  await expect(buyer.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  const reference = (await buyer.getByTestId("order-reference").textContent())!.trim();

  await page.setViewportSize({ width: 390, height: 900 });
  await signInAsOwner(page);
  await page.goto(`/admin/orders?q=${encodeURIComponent(reference)}`);
  await page.getByRole("link", { name: reference }).click();
  await page.getByText("Refund", { exact: true }).click();
  const amount = page.getByLabel("Amount (R)", { exact: true });
  await expect(page.locator("#field-amount-preview")).toHaveText("Refunds R 650.00");
  await amount.fill("6,5,0");
  await page.getByRole("button", { name: "Yes, refund through the payment provider" }).click();
  await expect(page.locator("#field-amount-error")).toHaveText(/^Amount has a separator in the wrong place/);
  await expect(page.getByRole("region", { name: "Refunds" }).getByRole("listitem")).toHaveCount(0);
  await page.getByLabel("Amount (R)", { exact: true }).fill("100,50");
  await expect(page.locator("#field-amount-preview")).toHaveText("Refunds R 100.50");
  await page.screenshot({ path: `${SHOTS}/refund-390.png` });
  await page.getByRole("button", { name: "Yes, refund through the payment provider" }).click();
  await expect(page.getByText(/R 100.50 refunded|Refund requested/).first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole("region", { name: "Refunds" })).toContainText("R 100.50");
});
