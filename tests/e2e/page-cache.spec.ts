import { expect, test } from "./support/test";

// A cached page is gzipped once around its nonce slots (server/page-template.ts): every hit must
// still decode to the same page, carrying its own response's nonce everywhere the page has one.
const nonceOf = (csp: string | undefined) => /'nonce-([^']+)'/.exec(csp ?? "")?.[1];

test("a cached page sent gzipped decodes to the same page with this response's nonce", async ({ request }) => {
  for (const path of ["/", "/product/candy-earrings", "/blog"]) {
    await request.get(path); // fills the cache
    const plain = await request.get(path, { headers: { "accept-encoding": "identity" } });
    // The fast path before Express answers hits with its own gzip; Express's compression() would too.
    const zipped = await request.get(path, { headers: { "accept-encoding": "gzip" } });
    expect(zipped.headers()["x-page-cache"], path).toBe("HIT");
    expect(zipped.headers()["content-encoding"], path).toBe("gzip");
    expect(plain.headers()["content-encoding"], path).toBeUndefined();

    const plainNonce = nonceOf(plain.headers()["content-security-policy"]);
    const zippedNonce = nonceOf(zipped.headers()["content-security-policy"]);
    expect(plainNonce && zippedNonce && plainNonce !== zippedNonce, path).toBe(true);
    const plainText = await plain.text();
    const zippedText = await zipped.text(); // the client inflates it (and checks its CRC)
    expect(zippedText.split(zippedNonce!).length, path).toBeGreaterThan(3);
    expect(zippedText.replaceAll(zippedNonce!, "N"), path).toBe(plainText.replaceAll(plainNonce!, "N"));
  }
});

test("a browser renders a cached page and its scripts run under its nonce", async ({ page }) => {
  await page.goto("/events");
  const response = await page.goto("/events");
  expect(response?.headers()["x-page-cache"]).toBe("HIT");
  await expect(page.getByRole("heading", { level: 1, name: "Upcoming Events" })).toBeVisible();
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
});
