import { expect, test } from "./support/test";
import { expectUsableAtPhoneAndLaptop, signInAsOwner } from "./support/admin";

test("every admin section is one tap away on a phone, the current one marked, Logout in reach", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsOwner(page);
  await page.getByText("Menu", { exact: true }).click();
  const sections = page.getByRole("navigation", { name: "Admin sections" });
  for (const name of [
    "Dashboard",
    "Products",
    "Events",
    "Memberships",
    "Blog",
    "Gallery",
    "Messages",
    "Settings",
    "Activity",
  ]) {
    await expect(sections.getByRole("link", { name, exact: true })).toBeVisible();
  }
  await sections.getByRole("link", { name: "Products", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/products$/);
  await expect(page.getByRole("heading", { level: 1, name: "Products" })).toBeVisible();
  await page.getByText("Menu", { exact: true }).click();
  await expect(sections.getByRole("link", { name: "Products", exact: true })).toHaveAttribute("aria-current", "page");
  // The shop's own header and footer are not part of the admin.
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test("the product list searches and filters, and its cards fit a phone", async ({ page }) => {
  await signInAsOwner(page);
  await page.goto("/admin/products");
  await page.getByLabel("Search").fill("earrings");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/q=earrings/);
  await expect(page.getByText("2 products")).toBeVisible();
  await expect(page.getByRole("link", { name: "Candy Earrings" })).toBeVisible();
  await page.getByLabel("Kind").selectOption({ label: "Consultation service" });
  await page.getByLabel("Search").fill("");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("link", { name: "Fashion Consultation" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Candy Earrings" })).toHaveCount(0);
});

test("a wrong field is named, nothing is saved, and what was typed stays", async ({ page }) => {
  await signInAsOwner(page);
  await page.goto("/admin/products/new");
  await page.getByLabel("Name", { exact: true }).fill("Half-made Dress");
  await page.getByLabel("Price (R)").fill("a lot");
  await page.getByRole("button", { name: "Add product" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "need your attention" })).toBeVisible();
  await expect(page.getByLabel("Price (R)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Price must be an amount in rand")).toBeVisible();
  await expect(page.getByText("Description is required")).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Half-made Dress");
  await page.goto("/admin/products?q=Half-made");
  await expect(page.getByText("0 products")).toBeVisible();
});

for (const path of [
  "/admin",
  "/admin/products",
  "/admin/products/new",
  "/admin/products/4",
  "/admin/messages",
  "/admin/activity",
]) {
  test(`${path} fits a phone and a laptop, and axe finds nothing`, async ({ page }) => {
    await signInAsOwner(page);
    await expectUsableAtPhoneAndLaptop(page, path);
  });
}
