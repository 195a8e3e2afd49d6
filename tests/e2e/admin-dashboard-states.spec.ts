import { type Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { signInAsOwner } from "./support/admin";

async function signIn(page: Page) {
  await signInAsOwner(page);
  await expect(page.getByTestId("counter-page-views")).toBeVisible();
}

/** Client navigations of the dashboard fetch its data from /admin.data. */
const isDashboardData = (url: URL) => url.pathname === "/admin.data";

test("'Loading analytics...' shows while the dashboard's data loads, then the data", async ({ page }) => {
  await signIn(page);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(isDashboardData, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel("Period").selectOption("30d");
  await expect(page.getByText("Loading analytics...")).toBeVisible();
  release();
  await expect(page).toHaveURL(/period=30d/);
  await expect(page.getByText("Loading analytics...")).toBeHidden();
  await expect(page.getByTestId("counter-page-views")).toBeVisible();

  // Each table's Refresh shows it too.
  let releaseAgain!: () => void;
  const heldAgain = new Promise<void>((resolve) => (releaseAgain = resolve));
  await page.unroute(isDashboardData);
  await page.route(isDashboardData, async (route) => {
    await heldAgain;
    await route.continue();
  });
  await page.getByRole("button", { name: "Refresh Recent Activity" }).click();
  await expect(page.getByText("Loading analytics...")).toBeVisible();
  releaseAgain();
  await expect(page.getByText("Loading analytics...")).toBeHidden();
});

// The failure texts when the dashboard's data cannot be read are checked on the server's rendering in
// tests/integration/admin-dashboard-view.test.ts (a database failure in the loader).
