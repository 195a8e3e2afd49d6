import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { sitemapPaths, warmBeforeListening, warmUp } from "./warm-up";

const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://shop.example.co.za/</loc></url>
  <url><loc>https://shop.example.co.za/about</loc></url>
  <url><loc> https://shop.example.co.za/product/candy-earrings </loc></url>
  <url><loc>https://elsewhere.example.com/not-ours</loc></url>
  <url><loc>https://shop.example.co.za/about</loc></url>
  <url><loc>https://shop.example.co.za/blog?page=2&amp;tag=a</loc></url>
</urlset>`;

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A loopback server that answers the sitemap, 404 for /missing, 200 for the rest, and notes what it was asked and how. */
async function serve(options: { sitemap?: string; delayMs?: number } = {}) {
  const asked: { path: string; userAgent?: string; cookie?: string }[] = [];
  let inFlight = 0;
  let mostAtOnce = 0;
  server = http.createServer((req, res) => {
    asked.push({ path: req.url!, userAgent: req.headers["user-agent"], cookie: req.headers.cookie });
    mostAtOnce = Math.max(mostAtOnce, ++inFlight);
    setTimeout(() => {
      inFlight--;
      if (req.url === "/sitemap.xml" && options.sitemap)
        return res.writeHead(200, { "Content-Type": "application/xml" }).end(options.sitemap);
      if (req.url === "/missing" || req.url === "/sitemap.xml") return res.writeHead(404).end("not found");
      res.writeHead(200, { "Content-Type": "text/html" }).end("<p>page</p>");
    }, options.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, asked, mostAtOnce: () => mostAtOnce };
}

describe("sitemapPaths", () => {
  it("keeps the sitemap's own pages once each, in order, with their queries", () => {
    expect(sitemapPaths(SITEMAP)).toEqual(["/", "/about", "/product/candy-earrings", "/blog?page=2&tag=a"]);
  });

  it("finds nothing in what is not a sitemap", () => {
    expect(sitemapPaths("<html>Internal error</html>")).toEqual([]);
    expect(sitemapPaths("<loc>not a url</loc>")).toEqual([]);
  });
});

describe("warmUp", () => {
  it(
    "asks for the home page, the sitemap, then each of its pages and the extra paths, one at a time, as an anonymous " +
      "visitor",
    async () => {
      const { base, asked, mostAtOnce } = await serve({ sitemap: SITEMAP, delayMs: 5 });
      const visited = await warmUp({ base, extraPaths: ["/contact?sent=1", "/about"] });
      expect(asked.map((a) => a.path)).toEqual([
        "/",
        "/sitemap.xml",
        "/about",
        "/product/candy-earrings",
        "/blog?page=2&tag=a",
        "/contact?sent=1",
      ]);
      expect(mostAtOnce()).toBe(1);
      expect(asked.every((a) => a.userAgent === "honey-bee-warm-up" && a.cookie === undefined)).toBe(true);
      expect(visited.every((v) => v.status === 200)).toBe(true);
    },
  );

  it("stops at maxPages, still asking for the extra paths", async () => {
    const { base, asked } = await serve({ sitemap: SITEMAP });
    await warmUp({ base, maxPages: 2, extraPaths: ["/contact?sent=1", "/product/candy-earrings"] });
    expect(asked.map((a) => a.path)).toEqual([
      "/",
      "/sitemap.xml",
      "/about",
      "/contact?sent=1",
      "/product/candy-earrings",
    ]);
  });

  it("without a sitemap warms the home page, and reports what failed instead of throwing", async () => {
    const { base, asked } = await serve();
    const visited = await warmUp({ base, extraPaths: ["/missing"] });
    expect(asked.map((a) => a.path)).toEqual(["/", "/sitemap.xml", "/missing"]);
    expect(visited).toEqual([
      { path: "/", status: 200 },
      { path: "/sitemap.xml", status: 404 },
      { path: "/missing", status: 404 },
    ]);
  });

  it("stops between pages once aborted (the server is closing)", async () => {
    const { base, asked } = await serve({ sitemap: SITEMAP, delayMs: 20 });
    const abort = new AbortController();
    const warming = warmUp({ base, signal: abort.signal, extraPaths: [] });
    await new Promise((resolve) => setTimeout(resolve, 30));
    abort.abort();
    await warming;
    expect(asked.length).toBeLessThan(5);
  });

  it("resolves when nothing answers at all", async () => {
    const { base } = await serve();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    expect(await warmUp({ base, extraPaths: [] })).toEqual([
      { path: "/", status: 0 },
      { path: "/sitemap.xml", status: 0 },
    ]);
  });
});

describe("warmBeforeListening", () => {
  /** A request listener as the app's: the sitemap, a page that never answers, 200 for the rest. */
  const appListener =
    (asked: { path: string; host?: string }[]): http.RequestListener =>
    (req, res) => {
      asked.push({ path: req.url!, host: req.headers.host });
      if (req.url === "/sitemap.xml") return res.writeHead(200).end(SITEMAP);
      if (req.url === "/product/candy-earrings") return; // a page slower than any limit
      res.writeHead(200).end("<p>page</p>");
    };

  it("has the app's own listener answer the warm-up's pages on a private loopback port, then closes that port", async () => {
    const asked: { path: string; host?: string }[] = [];
    const { visited } = await warmBeforeListening(appListener(asked), { pageMs: 200 });
    expect(asked.map((a) => a.path)).toEqual([
      "/",
      "/sitemap.xml",
      "/about",
      "/product/candy-earrings",
      "/blog?page=2&tag=a",
      "/contact?sent=1",
      "/bag",
      "/checkout?type=product&item=Candy+Earrings",
    ]);
    expect(visited).toContainEqual({ path: "/about", status: 200 });
    // The page slower than its limit is left to visitors rather than holding the port shut.
    expect(visited).toContainEqual({ path: "/product/candy-earrings", status: 0 });
    const privateBase = `http://${asked[0]!.host}`;
    expect(asked[0]!.host).toMatch(/^127\.0\.0\.1:\d+$/);
    await expect(fetch(privateBase)).rejects.toThrow();
  });

  it("stops asking once its whole limit has passed", async () => {
    const asked: { path: string; host?: string }[] = [];
    const { visited } = await warmBeforeListening(appListener(asked), { totalMs: 50, pageMs: 150 });
    expect(visited.map((v) => v.path)).not.toContain("/contact?sent=1");
  });
});
