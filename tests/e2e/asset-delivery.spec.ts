import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";

/** Every hashed script the page loaded, found by the browser through the bootstrap's imports. */
const scriptsLoaded = (page: Page) =>
  page.evaluate(() => [
    ...new Set(
      performance
        .getEntriesByType("resource")
        .map((entry) => new URL(entry.name).pathname)
        .filter((path) => /^\/assets\/.+\.js$/.test(path)),
    ),
  ]);

// Hashed assets: cached for a year as immutable, and sent as the Brotli or gzip copy written at build
// time, whichever the browser prefers, with the same bytes once decoded. (The stylesheet is written
// into each page, decision 063, so the scripts are the hashed text assets.)
test("hashed scripts are immutable and served precompressed as the browser prefers", async ({ page, request }) => {
  await page.goto("/");
  const urls = await scriptsLoaded(page);
  expect(urls.length).toBeGreaterThan(3);

  for (const url of urls) {
    const plain = await request.get(url, { headers: { "accept-encoding": "identity" } });
    expect(plain.status(), url).toBe(200);
    expect(plain.headers()["content-encoding"], url).toBeUndefined();
    expect(plain.headers()["cache-control"], url).toBe("public, max-age=31536000, immutable");
    expect(plain.headers()["content-type"], url).toMatch(/^text\/javascript/);
    const original = await plain.body();
    // Under 1 KB nothing is compressed, on the fly or ahead of time: the saving is smaller than the headers.
    if (original.length < 1024) {
      const res = await request.get(url, { headers: { "accept-encoding": "gzip, deflate, br, zstd" } });
      expect(res.headers()["content-encoding"], url).toBeUndefined();
      continue;
    }

    for (const [accept, encoding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
      ["br;q=0.5, gzip;q=1", "gzip"],
    ] as const) {
      const res = await request.get(url, { headers: { "accept-encoding": accept } });
      expect(res.status(), `${url} ${accept}`).toBe(200);
      const headers = res.headers();
      expect(headers["content-encoding"], `${url} ${accept}`).toBe(encoding);
      expect(headers["vary"], url).toMatch(/Accept-Encoding/i);
      expect(headers["cache-control"], url).toBe("public, max-age=31536000, immutable");
      expect(headers["content-type"], url).toBe(plain.headers()["content-type"]);
      // The file sent is the smaller, compressed copy; decoded, it is the same script or stylesheet.
      expect(Number(headers["content-length"]), url).toBeLessThan(original.length);
      expect((await res.body()).equals(original), `${url} ${accept}`).toBe(true);
    }
  }
});

test("a missing asset is a 404 page, not a compressed copy of something else", async ({ request }) => {
  const res = await request.get("/assets/no-such-file.js", { headers: { "accept-encoding": "br" } });
  expect(res.status()).toBe(404);
  expect(res.headers()["content-type"]).not.toMatch(/javascript/);
});

// Decision 071: the framework's chunks ask V8 to compile them while they download; the page's own
// code stays lazily compiled. React's production code marks its elements (react.transitional.element)
// or links its errors to react.dev; React, React DOM and React Router are one `framework` chunk
// (vite.config.ts, decision 089).
test("the scripts that carry React start with V8's compile hint, and the route's own code does not", async ({
  page,
  request,
}) => {
  await page.goto("/");
  const urls = await scriptsLoaded(page);
  const scripts = await Promise.all(
    urls.map(async (url) => ({
      url,
      text: await (await request.get(url, { headers: { "accept-encoding": "br" } })).text(),
    })),
  );
  const hinted = scripts.filter(({ text }) => text.startsWith("//# allFunctionsCalledOnLoad\n")).map(({ url }) => url);
  const framework = scripts
    .filter(({ text }) => /react\.transitional\.element|https:\/\/react\.dev\/errors\//.test(text))
    .map(({ url }) => url);
  expect(framework.length).toBeGreaterThanOrEqual(1);
  expect(hinted.sort()).toEqual(framework.sort());
  expect(urls.some((url) => /\/home-[^/]+\.js$/.test(url) && !hinted.includes(url))).toBe(true);
});
