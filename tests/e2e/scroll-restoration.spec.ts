import { type Page } from "@playwright/test";
import { expect, test } from "./support/test";

// app/components/ScrollRestoration.tsx (decision 073): React Router's scroll restoration, without the
// session-storage read on a page reached by a new navigation.

const KEY = "react-router-scroll-positions";

/** Counts, from the document's first script on, the reads of the stored scroll positions. */
async function countPositionReads(page: Page) {
  await page.addInitScript((key) => {
    const getItem = Storage.prototype.getItem;
    (window as unknown as { positionReads: number }).positionReads = 0;
    Storage.prototype.getItem = function (this: Storage, name: string) {
      if (name === key) (window as unknown as { positionReads: number }).positionReads++;
      return getItem.call(this, name);
    };
  }, KEY);
}
const positionReads = (page: Page) =>
  page.evaluate(() => (window as unknown as { positionReads: number }).positionReads);
const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));
const scrollTo = (page: Page, y: number) => page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);

test.use({ viewport: { width: 390, height: 700 } });

test("a new visit reads no stored scroll positions; a reload reads them and is back at its place", async ({ page }) => {
  await countPositionReads(page);
  await page.goto("/blog");
  expect(await positionReads(page)).toBe(0);
  expect(await page.evaluate(() => typeof window.history.state?.key)).toBe("string");

  await scrollTo(page, 900);
  await page.reload();
  expect(await positionReads(page)).toBeGreaterThan(0);
  await expect.poll(() => scrollY(page)).toBe(900);
});

test("going back after following a link returns to the place on the list; the new page starts at the top", async ({
  page,
}) => {
  await page.goto("/blog");
  // The last post's link, 300 px below the top of the window: clicking it scrolls nothing, so the
  // place to come back to is where the page stands now.
  const link = page.locator('main a[href^="/blog/"]').last();
  await link.evaluate((a) =>
    window.scrollTo({ top: a.getBoundingClientRect().top + window.scrollY - 300, behavior: "instant" }),
  );
  const place = await scrollY(page);
  expect(place).toBeGreaterThan(300);
  await link.click();
  await expect(page).toHaveURL(/\/blog\/[\w-]+$/);
  await expect.poll(() => scrollY(page)).toBe(0);
  await page.goBack();
  await expect(page).toHaveURL(/\/blog$/);
  await expect.poll(() => scrollY(page)).toBe(place);
});

test("a page reached by a new navigation keeps the positions earlier pages in the tab saved", async ({ page }) => {
  await page.goto("/blog");
  await scrollTo(page, 900);
  const blogEntry = await page.evaluate(() => window.history.state.key as string);
  // Two new documents: each saves its positions when it is hidden; the second never read the first's.
  await page.goto("/events");
  await page.goto("/styled-collections");
  const stored = await page.evaluate(
    (key) => JSON.parse(sessionStorage.getItem(key) ?? "{}") as Record<string, number>,
    KEY,
  );
  expect(stored[blogEntry]).toBe(900);
  expect(Object.keys(stored).length).toBeGreaterThanOrEqual(2);
});
