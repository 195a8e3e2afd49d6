import { expect, test } from "@playwright/test";

// Hashed assets: cached for a year as immutable, and sent as the Brotli or gzip copy written at build
// time, whichever the browser prefers, with the same bytes once decoded.
test("hashed scripts and the stylesheet are immutable and served precompressed as the browser prefers", async ({ page, request }) => {
  await page.goto("/");
  const urls = await page.evaluate(() => [
    ...new Set([
      ...[...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"], link[rel="stylesheet"]')].map((l) => new URL(l.href).pathname),
    ]),
  ]);
  expect(urls.filter((u) => /^\/assets\/.+\.js$/.test(u)).length).toBeGreaterThan(3);
  expect(urls.some((u) => /^\/assets\/.+\.css$/.test(u))).toBe(true);

  for (const url of urls) {
    const plain = await request.get(url, { headers: { "accept-encoding": "identity" } });
    expect(plain.status(), url).toBe(200);
    expect(plain.headers()["content-encoding"], url).toBeUndefined();
    expect(plain.headers()["cache-control"], url).toBe("public, max-age=31536000, immutable");
    expect(plain.headers()["content-type"], url).toMatch(url.endsWith(".css") ? /^text\/css/ : /^text\/javascript/);
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
