import { test as base, type Page, type Response } from "@playwright/test";

export { expect } from "@playwright/test";

/**
 * The site's scripts start only once the first screen has been drawn (app/lib/document-rewrite.server.ts),
 * so the load event, which `page.goto` waits for, comes before hydration. Until React has hydrated,
 * the server-rendered page works (links, forms) but a key press on a carousel or a lightbox does
 * nothing. This `page` waits, after each `goto` and `reload` that waited for the load event, until
 * the document says it has hydrated (`<html data-hydrated>`, set by app/root.tsx). Pages without the
 * app's scripts (an API answer, an image) and contexts without JavaScript are not waited for.
 */
export async function waitForHydration(page: Page): Promise<void> {
  const hasApp = await page.evaluate(() => document.querySelector('script[type="module"]') !== null).catch(() => false);
  if (hasApp) await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 15_000 });
}

type WaitUntil = NonNullable<Parameters<Page["goto"]>[1]>["waitUntil"];
const waitsForLoad = (waitUntil: WaitUntil) => waitUntil === undefined || waitUntil === "load";

export const test = base.extend({
  page: async ({ page, javaScriptEnabled }, provide) => {
    if (javaScriptEnabled !== false) {
      const goto = page.goto.bind(page);
      const reload = page.reload.bind(page);
      const hydrated = async (response: Response | null, waitUntil: WaitUntil) => {
        if (waitsForLoad(waitUntil) && response?.headers()["content-type"]?.startsWith("text/html"))
          await waitForHydration(page);
        return response;
      };
      page.goto = async (url, options) => hydrated(await goto(url, options), options?.waitUntil);
      page.reload = async (options) => hydrated(await reload(options), options?.waitUntil);
    }
    await provide(page);
  },
});
