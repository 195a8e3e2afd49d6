import { type Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { axe } from "./support/axe";

/** Every public route of the storefront: one product, ticket pages, both membership sets, 404s. */
const ROUTES = [
  "/",
  "/styled-collections",
  "/consultation-services",
  "/product/beaded-jewellery",
  "/product/choker-necklaces",
  "/product/speak-and-teach",
  "/product/does-not-exist",
  "/events",
  "/tickets/sip-style",
  "/tickets/radiance-reset",
  "/tickets/heritage-radiance",
  "/tickets/does-not-exist",
  "/workshop/tablecloth-skirt",
  "/membership/style-starter",
  "/membership/upcycle-kings-queens",
  "/membership/creative-bee",
  "/membership/does-not-exist",
  "/about",
  "/contact",
  "/events-gallery",
  "/test",
  "/no/such/page",
] as const;

/** The blog belongs to another issue: it is checked here, but only reported (see the test below). */
const READ_ONLY_ROUTES = ["/blog"] as const;

async function violations(page: Page): Promise<string[]> {
  const results = await (await axe(page)).analyze();
  return results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}

async function settle(page: Page) {
  // Lazy images below the fold must be in the page that axe sees (alt text, contrast over them).
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 600) {
      window.scrollTo(0, y);
      await new Promise((r) => requestAnimationFrame(() => r(null)));
    }
    window.scrollTo(0, 0);
  });
}

for (const width of [390, 1280]) {
  test.describe(`axe at ${width}px`, () => {
    test.use({ viewport: { width, height: 900 } });

    for (const path of ROUTES) {
      test(`${path} has no violations and no sideways scroll`, async ({ page }) => {
        await page.goto(path);
        await settle(page);
        expect(await violations(page), path).toEqual([]);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
      });
    }

    test("the open lightbox and the played video have no violations", async ({ page }) => {
      await page.goto("/events-gallery");
      await page.getByRole("button", { name: "Open Workshop moment 1 of 12", exact: true }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      expect(await violations(page)).toEqual([]);
      await page.goto("/");
      // The iframe itself is a third-party page (blocked here): check our side of it.
      await page.route("https://www.youtube-nocookie.com/**", (route) =>
        route.fulfill({ body: "<title>video</title>" }),
      );
      await page.getByRole("button", { name: /Play video/ }).click();
      await expect(page.locator("iframe")).toHaveCount(1);
      const results = await (await axe(page)).exclude("iframe").analyze();
      expect(results.violations.map((v) => v.id)).toEqual([]);
    });

    for (const path of READ_ONLY_ROUTES) {
      test(`${path} (another issue's page) is checked and its findings reported`, async ({ page }, info) => {
        await page.goto(path);
        const found = await violations(page);
        await info.attach(`axe ${path} ${width}px`, {
          body: JSON.stringify(found, null, 2),
          contentType: "application/json",
        });
        if (found.length) console.log(`[report] axe ${path} at ${width}px:\n  ${found.join("\n  ")}`);
        // Not ours to fix here; the page must at least render.
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      });
    }
  });
}
