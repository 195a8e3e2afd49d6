import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "./support/test";
import { ADMIN_PASSWORD } from "./support/admin";

/** Texts only the dashboard's code contains: if a public page's JavaScript has one, the dashboard leaked. */
const DASHBOARD_MARKERS = [
  "Loading analytics...",
  "No checkouts found yet",
  "Checkout Funnel",
  "Daily visitors and page views",
  "Top Referrers",
];
/** Any chunk made only of admin code (vite.config.ts names them `admin-…`), or an admin route's own. */
const ADMIN_CHUNK = /\/assets\/admin-[\w-]+\.js$/;
/**
 * The door's QR decoder (jsQR, decision 105): texts only its code holds, and the chunk Vite names after
 * it. It loads on /admin/check-in alone, by a dynamic import when the camera starts without the
 * browser's BarcodeDetector; no page, that one included, loads it on arrival.
 */
const DECODER_MARKERS = ["invertFirst", "alignmentPatternCenters", "Invalid numeric value above 999"];
const DECODER_CHUNK = /\/assets\/jsQR-[\w-]+\.js$/;
const containsDecoder = (body: string) => DECODER_MARKERS.some((marker) => body.includes(marker));

/** The sign-in page's own chunk, the one admin chunk it may load. */
const LOGIN_CHUNK = /\/assets\/admin-login-[\w-]+\.js$/;

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

/**
 * The JavaScript a page loads: React Router's bootstrap imports (written in a module script, or held
 * as a JSON string until the first screen is drawn, see app/lib/document-rewrite.server.ts) and any
 * modulepreload links, then every chunk those import statically, followed through the module graph.
 */
const STATIC_IMPORT = /(?:\bimport|\bexport)\s*(?:[\w{}*\s,$]+from\s*)?["']([^"']+\.js)["']/g;
const BOOTSTRAP_IMPORT = /import\s*(?:[\w{}*\s,]+from\s*|\(\s*)?["']([^"']+\.js)["']/g;

function bootstrapUrls(html: string): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.add(match[1]);
  for (const match of html.matchAll(/<link[^>]+href="([^"]+)"[^>]*rel="modulepreload"/g)) urls.add(match[1]);
  // Held code is JSON in the release script: undo its escaped quotes so the imports read as written.
  for (const match of html.replaceAll('\\"', '"').matchAll(BOOTSTRAP_IMPORT)) urls.add(match[1]);
  for (const match of html.matchAll(/<script[^>]+type="module"[^>]*src="([^"]+)"/g)) urls.add(match[1]);
  return [...urls];
}

async function pageScripts(request: APIRequestContext, path: string, headers: Record<string, string> = {}) {
  const response = await request.get(path, { headers });
  expect(response.status(), path).toBe(200);
  const queue = bootstrapUrls(await response.text());
  expect(queue.length, `${path} loads no JavaScript?`).toBeGreaterThan(0);
  const bodies = new Map<string, string>();
  while (queue.length) {
    const url = queue.shift()!;
    if (bodies.has(url)) continue;
    const script = await request.get(url);
    expect(script.status(), url).toBe(200);
    const body = await script.text();
    bodies.set(url, body);
    for (const match of body.matchAll(STATIC_IMPORT)) queue.push(new URL(match[1], new URL(url, "http://x")).pathname);
  }
  return [...bodies].map(([url, body]) => ({ url, body }));
}

test("no public page, nor the sign-in page, loads the dashboard's code", async ({ request }) => {
  for (const path of [...PUBLIC_PAGES, "/admin/login"]) {
    const scripts = await pageScripts(request, path);
    for (const { url, body } of scripts) {
      if (path !== "/admin/login" || !LOGIN_CHUNK.test(url))
        expect(url, `${path} preloads an admin chunk`).not.toMatch(ADMIN_CHUNK);
      for (const marker of DASHBOARD_MARKERS)
        expect(body.includes(marker), `${path}: ${url} contains "${marker}"`).toBe(false);
      expect(url, `${path} loads the QR decoder`).not.toMatch(DECODER_CHUNK);
      expect(containsDecoder(body), `${path}: ${url} holds the QR decoder`).toBe(false);
    }
  }
});

test("the QR decoder is in the build, as its own chunk the check-in page imports on demand (so the checks can see it)", () => {
  const names = fs.readdirSync(BUILD_ASSETS);
  const decoder = names.filter((name) => DECODER_CHUNK.test(`/assets/${name}`));
  expect(decoder).toHaveLength(1);
  expect(containsDecoder(fs.readFileSync(path.join(BUILD_ASSETS, decoder[0]!), "utf8"))).toBe(true);
  const importers = names.filter(
    (name) =>
      name.endsWith(".js") &&
      fs.readFileSync(path.join(BUILD_ASSETS, name), "utf8").includes(`import("./${decoder[0]}")`),
  );
  expect(importers.length).toBe(1);
  expect(importers[0]).toMatch(/^check-in-/);
});

test("the dashboard's own page does load it (so the check above can see it)", async ({ page, request }) => {
  await page.goto("/admin/login");
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  const cookies = await page.context().cookies();
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const scripts = await pageScripts(request, "/admin", { Cookie: cookie });
  expect(scripts.some(({ url }) => ADMIN_CHUNK.test(url))).toBe(true);
  const all = scripts.map((s) => s.body).join("\n");
  for (const marker of DASHBOARD_MARKERS) expect(all).toContain(marker);
});

/** The admin's pages, each measured as the owner opens it (issue 19: at most 200 KB of gzipped JavaScript). */
const ADMIN_PAGES = [
  "/admin",
  "/admin/orders",
  "/admin/products",
  "/admin/products/new",
  "/admin/products/4",
  "/admin/events",
  "/admin/events/new",
  "/admin/events/sip-style",
  "/admin/events/sip-style/attendees",
  "/admin/events/tablecloth-workshop/sessions",
  "/admin/check-in",
  "/admin/memberships",
  "/admin/blog",
  "/admin/blog/new",
  "/admin/gallery",
  "/admin/messages",
  "/admin/settings",
  "/admin/activity",
];
const ADMIN_JS_BUDGET = 200 * 1024;
const BUILD_ASSETS = path.join(process.env.BUILD_DIR ?? "build", "client", "assets");

test("every admin page loads at most 200 KB of JavaScript, gzipped, counted from what the browser fetched", async ({
  page,
}) => {
  // Two dozen first visits, each waiting for the network to stay quiet for half a second: about 45 s
  // on this 2-core machine, the default timeout itself. What is checked is size, not speed.
  test.setTimeout(120_000);
  await page.goto("/admin/login");
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  const sizes: string[] = [];
  for (const adminPath of ADMIN_PAGES) {
    // A fresh document each time, so the page fetches everything it needs on a first visit.
    await page.goto("about:blank");
    await page.goto(adminPath);
    await page.waitForLoadState("networkidle");
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .map((e) => new URL(e.name).pathname)
        .filter((p) => p.endsWith(".js")),
    );
    expect(scripts.length, adminPath).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script, `${adminPath} loads the QR decoder`).not.toMatch(DECODER_CHUNK);
      expect(
        containsDecoder(fs.readFileSync(path.join(BUILD_ASSETS, path.basename(script)), "utf8")),
        `${adminPath}: ${script} holds the QR decoder`,
      ).toBe(false);
    }
    // The gzip copy the build wrote (server/precompressed-assets.ts serves it), or the file itself if too small to compress.
    const bytes = scripts.reduce((sum, script) => {
      const file = path.join(BUILD_ASSETS, path.basename(script));
      return sum + (fs.existsSync(`${file}.gz`) ? fs.statSync(`${file}.gz`).size : fs.statSync(file).size);
    }, 0);
    sizes.push(`${adminPath} ${(bytes / 1024).toFixed(1)} KB`);
    expect(bytes, `${adminPath}: ${scripts.join(", ")}`).toBeLessThanOrEqual(ADMIN_JS_BUDGET);
  }
  test.info().annotations.push({ type: "admin JS (gzip)", description: sizes.join("; ") });
  console.log(`[admin JS, gzip] ${sizes.join("; ")}`);
});
