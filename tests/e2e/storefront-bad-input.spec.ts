import { expect, test } from "./support/test";

/** Odd paths and query strings a crawler, a typo or a probe sends: none may be a server error. */
const ODD_PATHS = [
  `/product/${"x".repeat(5000)}`,
  `/membership/${"y".repeat(5000)}`,
  `/tickets/${"z".repeat(5000)}`,
  "/product/%00",
  "/membership/%00",
  "/tickets/%00",
  "/blog/%00",
  "/product/%E0%A4%A",
  "/membership/%E0%A4%A",
  "/tickets/%E0%A4%A",
  "/%E0%A4%A",
  "/product/%C0%AF",
  "/product/..%2F..%2Fetc%2Fpasswd",
  "/product/a%2Fb",
  "/product/%20",
  "/product/Beaded-Jewellery",
  "/membership/__proto__",
  "/tickets/constructor",
  "/?a=%E0%A4%A",
  "/?a=%00&b=%ZZ&&&=&c",
  "/styled-collections?sort=%%%",
  "/events?x[]=1&x[]=2",
  "/contact?subject=%E0%A4%A",
  "/contact?subject=%00%01%1B",
  `/contact?subject=${"s".repeat(5000)}`,
  "/contact?subject=a&subject=b",
  "/events-gallery?photo=-1",
  "/tickets/sip-style?__proto__[x]=1",
  "/test?price=R0",
  "/sitemap.xml?x=%00",
  "/robots.txt?%E0%A4%A",
] as const;

for (const path of ODD_PATHS) {
  test(`GET ${path.slice(0, 60)} is not a server error`, async ({ request }) => {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBeLessThan(500);
  });
}

test("a 5,000-character product slug is the spec's Product not found with a 404", async ({ page }) => {
  const res = await page.goto(`/product/${"x".repeat(5000)}?a=%E0%A4%A`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Product not found" })).toBeVisible();
});

test("a NUL byte in ids is a 404 with the right not-found text", async ({ page }) => {
  expect((await page.goto("/tickets/%00"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Event Not Found" })).toBeVisible();
  expect((await page.goto("/membership/%00"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Membership Not Found" })).toBeVisible();
  expect((await page.goto("/product/%00"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Product not found" })).toBeVisible();
});

test("control characters and an oversized subject are dropped from the contact pre-fill", async ({ page }) => {
  await page.goto(`/contact?subject=Hi%00there${"s".repeat(400)}`);
  const subject = await page.getByLabel("Subject", { exact: true }).inputValue();
  expect(subject.startsWith("Hithere")).toBe(true);
  expect(subject.length).toBe(200);
});

// Posts to /contact with bodies that are not the form: tests/integration/storefront-contact-input.test.ts
// (there, each case gets its own client address; here every request shares one rate-limit window).

test("other pages refuse a POST without a server error", async ({ request }) => {
  for (const path of [
    "/",
    "/product/beaded-jewellery",
    "/tickets/sip-style",
    "/membership/style-starter",
    "/events-gallery",
  ]) {
    const res = await request.post(path, { form: { a: "b" } });
    expect(res.status(), path).toBeLessThan(500);
  }
});
