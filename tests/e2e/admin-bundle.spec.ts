import { expect, type APIRequestContext, test } from "@playwright/test";

const PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? "e2e-admin-password";

/** Texts only the dashboard's code contains: if a public page's JavaScript has one, the dashboard leaked. */
const DASHBOARD_MARKERS = ["Loading analytics...", "No checkouts found yet", "Checkout Funnel", "Daily visitors and page views", "Top Referrers"];
/** Any admin route's own chunk (the dashboard, sign-in, logout, export). */
const ADMIN_CHUNK = /\/assets\/admin(-[a-z]+)?-[\w-]+\.js$/;

const PUBLIC_PAGES = [
  "/",
  "/styled-collections",
  "/consultation-services",
  "/product/beaded-jewellery",
  "/events",
  "/tickets/sip-style",
  "/about",
  "/contact",
  "/blog",
  "/blog/the-art-of-upcycling",
  "/events-gallery",
  "/test",
];

/** The JavaScript a page loads up front: its modulepreload links and module scripts' imports. */
function scriptUrls(html: string): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.add(match[1]);
  for (const match of html.matchAll(/<link[^>]+href="([^"]+)"[^>]*rel="modulepreload"/g)) urls.add(match[1]);
  for (const match of html.matchAll(/import\s*(?:[\w{}*\s,]+from\s*)?["']([^"']+\.js)["']/g)) urls.add(match[1]);
  for (const match of html.matchAll(/<script[^>]+type="module"[^>]*src="([^"]+)"/g)) urls.add(match[1]);
  return [...urls];
}

async function pageScripts(request: APIRequestContext, path: string, headers: Record<string, string> = {}) {
  const response = await request.get(path, { headers });
  expect(response.status(), path).toBe(200);
  const urls = scriptUrls(await response.text());
  expect(urls.length, `${path} loads no JavaScript?`).toBeGreaterThan(0);
  const bodies = await Promise.all(urls.map(async (url) => ({ url, body: await (await request.get(url)).text() })));
  return bodies;
}

test("no public page, nor the sign-in page, loads the dashboard's code", async ({ request }) => {
  for (const path of [...PUBLIC_PAGES, "/admin/login"]) {
    const scripts = await pageScripts(request, path);
    for (const { url, body } of scripts) {
      if (path !== "/admin/login") expect(url, `${path} preloads an admin chunk`).not.toMatch(ADMIN_CHUNK);
      else expect(url, `/admin/login preloads the dashboard`).not.toMatch(/\/assets\/admin-[A-Za-z0-9_]{6,}\.js$/);
      for (const marker of DASHBOARD_MARKERS) expect(body.includes(marker), `${path}: ${url} contains "${marker}"`).toBe(false);
    }
  }
});

test("the dashboard's own page does load it (so the check above can see it)", async ({ page, request }) => {
  await page.goto("/admin/login");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  const cookies = await page.context().cookies();
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const scripts = await pageScripts(request, "/admin", { Cookie: cookie });
  expect(scripts.some(({ url }) => ADMIN_CHUNK.test(url))).toBe(true);
  const all = scripts.map((s) => s.body).join("\n");
  for (const marker of DASHBOARD_MARKERS) expect(all).toContain(marker);
});
