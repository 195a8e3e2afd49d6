import { expect, test } from "./support/test";

// The first paint needs the HTML alone (app/lib/document-rewrite.server.ts, decision 063): the
// stylesheet is inline and the app's JavaScript is requested only after the load event, once the
// first screen's images and fonts are in and drawn (never by the HTML itself), then hydrates the page.

const PAGES = [
  "/",
  "/styled-collections",
  "/product/candy-earrings",
  "/events",
  "/blog",
  "/checkout?type=product&item=Test%20Product&price=R5",
];

for (const path of PAGES) {
  test(`${path}: inline stylesheet, no script fetched before the load event, then hydrated without errors`, async ({
    page,
    request,
  }) => {
    const html = await (await request.get(path)).text();
    expect(html).toContain('<style data-stylesheet="app">');
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"[^>]+\/assets\//);
    expect(html).not.toContain('rel="modulepreload"');

    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    await page.goto(path);
    await expect(page.locator("html[data-hydrated]")).toBeAttached();
    const timing = await page.evaluate(() => {
      const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const scripts = performance
        .getEntriesByType("resource")
        .filter((entry) => /\/assets\/.+\.js$/.test(entry.name))
        .map((entry) => entry.startTime);
      return { loaded: navigation.loadEventStart, firstScript: Math.min(...scripts), scripts: scripts.length };
    });
    expect(timing.scripts).toBeGreaterThan(0);
    expect(timing.loaded).toBeGreaterThan(0);
    expect(timing.firstScript).toBeGreaterThanOrEqual(timing.loaded);
    // Hydrated: React has attached itself to the page's links.
    const hydrated = await page.evaluate(() =>
      Object.keys(document.querySelector("header a[href='/']") ?? {}).some((key) => key.startsWith("__react")),
    );
    expect(hydrated).toBe(true);
    expect(problems).toEqual([]);
  });
}

test("after hydration a link navigates inside the same document", async ({ page }) => {
  await page.goto("/");
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await page.locator("footer a[href='/events']").click();
  await expect(page).toHaveURL(/\/events$/);
  await expect(page.getByRole("heading", { level: 1, name: "Upcoming Events" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
});

test("without JavaScript the page is fully styled and its links work", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/events");
  // The brand's cream background and the display face come from the inline stylesheet.
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(255, 248, 231)");
  expect(await page.evaluate(() => getComputedStyle(document.querySelector("h1")!).fontFamily)).toContain("Fraunces");
  await page.locator("footer a[href='/about']").click();
  await expect(page).toHaveURL(/\/about$/);
  await context.close();
});
