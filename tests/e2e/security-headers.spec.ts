import { expect, test } from "./support/test";

// Every kind of response: pages (cached and not), not-found, admin, API, static files.
const ROUTES = [
  "/",
  "/styled-collections",
  "/consultation-services",
  "/product/candy-earrings",
  "/product/no-such-product",
  "/events",
  "/tickets/sip-style",
  "/tickets/heritage-radiance",
  "/workshop/tablecloth-skirt",
  "/membership/style-starter",
  "/membership/starter-bee",
  "/about",
  "/contact",
  "/blog",
  "/events-gallery",
  "/checkout",
  "/checkout?type=product&item=Test%20Product&price=R5",
  "/order-confirmation?status=success",
  "/test",
  "/admin/login",
  "/admin",
  "/sitemap.xml",
  "/robots.txt",
  "/healthz",
  "/favicon.svg",
  "/no/such/page",
];

for (const route of ROUTES) {
  test(`security headers on ${route}`, async ({ request }) => {
    const response = await request.get(route, { maxRedirects: 0 });
    expect(response.status(), route).toBeLessThan(500);
    const headers = response.headers();
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"]).toContain("camera=()");
    const csp = headers["content-security-policy"] ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}'/);
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(scriptSrc).not.toContain("unsafe-eval");
    if ((headers["content-type"] ?? "").includes("text/html")) {
      const nonce = /'nonce-([^']+)'/.exec(scriptSrc)![1];
      const html = await response.text();
      // Every executable script carries this response's nonce, so the browser runs it and nothing else.
      // JSON-LD blocks are data the browser never executes, so CSP does not apply to them.
      const scripts = (html.match(/<script\b[^>]*>/g) ?? []).filter(
        (tag) => !tag.includes('type="application/ld+json"'),
      );
      expect(scripts.length, `${route}: executable scripts`).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, `${route}: ${tag}`).toContain(`nonce="${nonce}"`);
    }
  });
}

test("pages run their scripts under the CSP: no violations reported in the browser", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
  for (const route of ["/", "/product/candy-earrings", "/events", "/blog", "/contact"]) {
    await page.goto(route);
    await page.waitForLoadState("networkidle");
  }
  expect(violations).toEqual([]);
});
