import { expect, test } from "./support/test";
import { axe } from "./support/axe";

test.describe("catalog", () => {
  test("styled collections: sorted, sold-out not navigable, limited badge", async ({ page }) => {
    await page.goto("/styled-collections");
    await expect(page.getByRole("heading", { level: 1, name: "Styled Collections and Solutions" })).toBeVisible();
    const cards = page.getByTestId("item-card");
    await expect(cards.first()).toBeVisible();
    const sold = cards.filter({ hasText: "Choker Necklaces" });
    await expect(sold).toContainText("SOLD OUT");
    await expect(sold.locator("s")).toHaveCount(1);
    await expect(sold.getByRole("link")).toHaveCount(0);
    await expect(cards.filter({ hasText: "Candy Earrings" })).toContainText("10 LIMITED STOCK!");
    await expect(page.getByRole("link", { name: /Beaded Jewellery/ })).toHaveAttribute(
      "href",
      "/product/beaded-jewellery",
    );
    await expect(page.getByRole("link", { name: /Test Product/ })).toHaveCount(0);
  });

  test("consultation services: three cards to product pages", async ({ page }) => {
    await page.goto("/consultation-services");
    for (const [name, slug] of [
      ["Speak And Teach", "speak-and-teach"],
      ["Fashion Consultation", "fashion-consultation"],
      ["Honey Bee Coaching", "honey-bee-coaching"],
    ]) {
      await expect(page.getByRole("link", { name: new RegExp(name) })).toHaveAttribute("href", `/product/${slug}`);
    }
    await expect(page.getByTestId("item-card")).toHaveCount(3);
  });

  test("product page: gallery thumbnails, Order Now and Contact for Details", async ({ page }) => {
    await page.goto("/product/beaded-jewellery");
    await expect(page.getByRole("heading", { level: 1, name: "Beaded Jewellery" })).toBeVisible();
    const thumbs = page.getByRole("button", { name: /Show photo/ });
    await expect(thumbs).toHaveCount(3);
    await expect(thumbs.nth(0)).toHaveAttribute("aria-pressed", "true");
    await thumbs.nth(1).focus();
    await page.keyboard.press("Enter");
    await expect(thumbs.nth(1)).toHaveAttribute("aria-pressed", "true");
    await expect(thumbs.nth(0)).toHaveAttribute("aria-pressed", "false");
    await expect(page.getByRole("img", { name: /photo 2 of 3/ })).toBeVisible();
    const order = page.getByRole("link", { name: "Order Now" });
    const href = await order.getAttribute("href");
    const url = new URL(href!, "http://x");
    expect(url.pathname).toBe("/checkout");
    expect(url.searchParams.get("type")).toBe("product");
    expect(url.searchParams.get("item")).toBe("Beaded Jewellery");
    expect(url.searchParams.get("price")).toMatch(/^R\d+$/);
    await expect(page.getByRole("link", { name: "Contact for Details" })).toHaveAttribute(
      "href",
      "/contact?subject=Enquiry%20about%20Beaded%20Jewellery",
    );
    const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(ld.join("")).toContain('"priceCurrency":"ZAR"');
  });

  test("single-image product has no thumbnails; sold out has no Order Now", async ({ page }) => {
    await page.goto("/product/crochet-earrings");
    await expect(page.getByRole("button", { name: /Show photo/ })).toHaveCount(0);
    await page.goto("/product/choker-necklaces");
    await expect(page.getByText("SOLD OUT")).toBeVisible();
    await expect(page.getByRole("link", { name: "Order Now" })).toHaveCount(0);
  });

  test("unknown product: 404 with Product not found", async ({ page }) => {
    const response = await page.goto("/product/does-not-exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Product not found" })).toBeVisible();
    const long = await page.goto(`/product/${"x".repeat(3000)}?a=%ZZ`);
    expect(long?.status()).toBeLessThan(500);
  });

  test("/test: Test Product R 5.00 to checkout", async ({ page }) => {
    await page.goto("/test");
    await expect(page.getByRole("heading", { name: "Test Product" })).toBeVisible();
    await expect(page.getByText("R 5.00")).toBeVisible();
    await expect(page.getByRole("link", { name: "Order Now" })).toHaveAttribute(
      "href",
      "/checkout?type=product&item=Test%20Product&price=R5",
    );
  });

  test("sitemap and robots", async ({ request, baseURL }) => {
    const sitemap = await request.get("/sitemap.xml");
    expect(sitemap.status()).toBe(200);
    const xml = await sitemap.text();
    expect(xml).toContain("/product/candy-earrings</loc>");
    expect(xml).toContain("/membership/style-starter</loc>");
    expect(xml).toMatch(/<loc>https?:\/\/[^<]+\/tickets\/sip-style<\/loc>/);
    const robots = await (await request.get("/robots.txt")).text();
    expect(robots).toContain("Disallow: /admin");
    expect(robots).toContain("Disallow: /checkout");
    expect(robots).toMatch(/Sitemap: https?:\/\/.+\/sitemap\.xml/);
    // Addresses are absolute on the site's own URL (SITE_URL is the server's address in these tests).
    expect(xml).toContain(`<loc>${baseURL}/product/candy-earrings</loc>`);
    expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  });

  for (const width of [390, 1280]) {
    for (const path of [
      "/styled-collections",
      "/consultation-services",
      "/product/beaded-jewellery",
      "/product/nope",
      "/test",
      "/about",
    ]) {
      test(`axe ${path} at ${width}px`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(path);
        const results = await (await axe(page)).withTags(["wcag2a", "wcag2aa"]).analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`)).toEqual([]);
        if (process.env.SHOTS)
          await page.screenshot({ path: `/tmp/shots/${path.replace(/\W+/g, "_")}-${width}.png`, fullPage: true });
      });
    }
  }
});
