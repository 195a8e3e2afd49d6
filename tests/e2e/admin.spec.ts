import { type Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { sendAnalyticsByFetch } from "./support/analytics";
import { axe } from "./support/axe";
import { ADMIN_PASSWORD, signInAsOwner } from "./support/admin";

// Headless Chromium announces itself as "HeadlessChrome", which the endpoint rightly drops as a bot.
const VISITOR_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

async function counter(page: Page, name: string): Promise<number> {
  const text = await page.getByTestId(`counter-${name}`).textContent();
  return Number((text ?? "0").replace(/\D/g, ""));
}

async function homeVisits(page: Page): Promise<number> {
  const row = page.getByRole("region", { name: "Popular Pages" }).getByRole("row", { name: /Home Page/ });
  if ((await row.count()) === 0) return 0;
  return Number(((await row.getByRole("cell").nth(1).textContent()) ?? "0").replace(/\D/g, ""));
}

test("/admin without a session redirects to the sign-in page", async ({ page }) => {
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByLabel("Password")).toBeVisible();
});

test("a wrong password is refused, the right one opens the dashboard", async ({ page }) => {
  await page.goto("/admin/login");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("button", { name: "Signing in..." })).toBeVisible();
  await expect(page.getByText("Invalid password")).toBeVisible();
  await expect(page.getByText("Please check your password and try again")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login$/);

  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText("Login successful")).toBeVisible();
  await expect(page.getByText("Welcome to the admin panel")).toBeVisible();
  for (const label of ["Total Visitors", "Page Views", "Product Views", "Event Views"]) {
    await expect(page.getByText(label, { exact: true })).toBeVisible();
  }
  for (const title of ["Contact Form Submissions", "Recent Checkouts", "Recent Activity", "Popular Pages"]) {
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
  }
});

test("a visitor's page views in another browser show up in the admin's counters and popular pages", async ({
  page,
  browser,
}) => {
  await signInAsOwner(page);
  const before = {
    pageViews: await counter(page, "page-views"),
    visitors: await counter(page, "total-visitors"),
    home: await homeVisits(page),
  };

  const visitorContext = await browser.newContext({ userAgent: VISITOR_UA });
  // Sent by fetch, each page view can be waited for until it was answered. Waiting for a quiet network
  // was not enough: the scripts start after the load event and the frame after it (decision 063), and
  // on a busy machine the next visit began before the first page view was sent.
  await sendAnalyticsByFetch(visitorContext);
  const visitor = await visitorContext.newPage();
  for (let i = 0; i < 3; i++) {
    const pageView = visitor.waitForResponse(
      (r) =>
        new URL(r.url()).pathname === "/api/analytics" &&
        (r.request().postData() ?? "").includes('"eventType":"page_view"'),
    );
    await visitor.goto("/");
    expect((await pageView).status()).toBe(204);
  }
  await visitorContext.close();

  await expect
    .poll(
      async () => {
        await page
          .getByRole("region", { name: "Popular Pages" })
          .getByRole("button", { name: /Refresh/ })
          .click();
        await page.waitForLoadState("networkidle");
        return (await counter(page, "page-views")) - before.pageViews;
      },
      { timeout: 15_000 },
    )
    .toBe(3);
  expect((await counter(page, "total-visitors")) - before.visitors).toBe(1);
  expect((await homeVisits(page)) - before.home).toBe(3);
  await expect(page.getByRole("region", { name: "Recent Activity" }).getByText("Page visited").first()).toBeVisible();
});

test("the period selector and the CSV export work for the admin; the export refuses anyone else", async ({
  page,
  request,
}) => {
  await signInAsOwner(page);
  await page.getByLabel("Period").selectOption("7d");
  await expect(page).toHaveURL(/period=7d/);
  await expect(page.getByRole("img", { name: "Daily visitors and page views" })).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: /Export CSV of analytics events/ }).click();
  expect((await download).suggestedFilename()).toMatch(/^honey-events-7d-.*\.csv$/);

  const anonymous = await request.get("/admin/export/orders", { maxRedirects: 0 });
  expect(anonymous.status()).toBe(401);
  expect(await anonymous.text()).not.toContain("@");
});

test("logout ends the session", async ({ page }) => {
  await signInAsOwner(page);
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByText("Logged out", { exact: true })).toBeVisible();
  await expect(page.getByText("You have been logged out successfully")).toBeVisible();
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test("signing in and out works before JavaScript loads", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/admin/login");
  await page.getByLabel("Password").fill("still-wrong");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Invalid password")).toBeVisible();
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText("Login successful")).toBeVisible();
  await page
    .getByRole("region", { name: "Recent Checkouts" })
    .getByRole("button", { name: /Refresh/ })
    .click();
  await expect(page).toHaveURL(/\/admin\?period=all$/);
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByText("You have been logged out successfully")).toBeVisible();
  await context.close();
});

for (const width of [390, 1280]) {
  test(`the sign-in page and dashboard have no axe violations at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/admin/login");
    expect((await (await axe(page)).analyze()).violations).toEqual([]);
    await signInAsOwner(page);
    await expect(page.getByText("Login successful")).toBeVisible();
    expect((await (await axe(page)).analyze()).violations).toEqual([]);
  });
}

// Last, and from its own "client" (the limit is per address + user agent, see
// docs/decisions/051-login-rate-limit-keys.md), so the lockout does not block the other admin tests.
test("repeated wrong passwords lock the client out with a message saying when to try again", async ({ browser }) => {
  const context = await browser.newContext({ userAgent: `Mozilla/5.0 lockout-test ${Date.now()}` });
  const page = await context.newPage();
  await page.goto("/admin/login");
  for (let i = 0; i < 4; i++) {
    await page.getByLabel("Password").fill(`wrong-${i}`);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("button", { name: "Sign In" })).toBeEnabled();
  }
  await page.getByLabel("Password").fill("wrong-5");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Too many failed sign-ins").first()).toBeVisible();
  await expect(page.getByText(/Please try again in 15 minutes \(after \d\d:\d\d\)/).first()).toBeVisible();
  // Even the right password is refused while locked out.
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByText(/Please try again in/).first()).toBeVisible();
  await context.close();
});
