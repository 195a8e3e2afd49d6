import { type Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { membershipsSeed } from "../../app/content/memberships";

/** Rules of issue 3 and spec sections 2, 4 and 9 that the per-screen specs do not already walk. */

const rands = (text: string) => Number(text.replace(/[^\d.]/g, ""));

test("styled collections: highest price first, sold-out dimmed with struck price, no link", async ({ page }) => {
  await page.goto("/styled-collections");
  const cards = page.getByTestId("item-card");
  const prices = await cards.locator("h2 + p").allTextContents();
  expect(prices.length).toBeGreaterThanOrEqual(9);
  const values = prices.map(rands);
  expect(values).toEqual([...values].sort((a, b) => b - a));
  expect(prices[0]).toBe("R 7,500.00");

  for (const name of ["Choker Necklaces", "Dashiki Dress", "Bucket Hats"]) {
    const card = cards.filter({ hasText: name });
    await expect(card.getByText("SOLD OUT", { exact: true })).toBeVisible();
    await expect(card.locator("s")).toHaveText(/^R \d/);
    await expect(card.getByRole("link")).toHaveCount(0);
    expect(Number(await card.evaluate((el) => getComputedStyle(el).opacity))).toBeLessThan(1);
  }
  const candy = cards.filter({ hasText: "Candy Earrings" });
  await expect(candy.getByText("10 LIMITED STOCK!", { exact: true })).toBeVisible();
  await candy.getByRole("link").click();
  await expect(page).toHaveURL(/\/product\/candy-earrings$/);
  await expect(page.getByText("10 LIMITED STOCK!", { exact: true })).toBeVisible();
});

test("product gallery: the selected thumbnail is highlighted and shown large", async ({ page }) => {
  await page.goto("/product/candy-earrings");
  const main = page.getByRole("img", { name: /Candy Earrings, photo \d of 3/ });
  await expect(main).toHaveAttribute("src", "/images/products/candy-earrings-1.svg");
  const thumbs = page.getByRole("button", { name: /Show photo/ });
  await thumbs.nth(2).click();
  await expect(main).toHaveAttribute("src", "/images/products/candy-earrings-3.svg");
  await expect(thumbs.nth(2)).toHaveAttribute("aria-pressed", "true");
  const highlight = (i: number) => thumbs.nth(i).evaluate((el) => getComputedStyle(el).borderColor);
  expect(await highlight(2)).not.toBe(await highlight(0));
});

test("services: Order Now and Contact for Details carry the service", async ({ page }) => {
  await page.goto("/consultation-services");
  await page.getByRole("link", { name: /Fashion Consultation/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Fashion Consultation" })).toBeVisible();
  await expect(page.getByText("R 850.00")).toBeVisible();
  await expect(page.getByRole("link", { name: "Order Now" })).toHaveAttribute(
    "href",
    "/checkout?type=product&item=Fashion%20Consultation&price=R850",
  );
  await page.getByRole("link", { name: "Contact for Details" }).click();
  await expect(page).toHaveURL(/\/contact\?subject=/);
  await expect(page.getByLabel("Subject", { exact: true })).toHaveValue("Enquiry about Fashion Consultation");
});

test("events listing: the four spec events and the demo workshop with date, time, location, participants, price and focus", async ({
  page,
}) => {
  await page.goto("/events");
  const cards = page.getByRole("main").getByRole("listitem");
  // The e2e server runs on the payment simulator, so it also lists the demo workshop (decision 081).
  await expect(cards).toHaveCount(5);
  for (let i = 0; i < 5; i++) {
    const terms = await cards.nth(i).locator("dt").allTextContents();
    expect(terms).toEqual(["Date", "Time", "Location", "Participants", "Price", "Focus"]);
  }
  const sip = cards.filter({ hasText: "Sip & Style at Nanas" });
  await expect(sip).toContainText("24 September 2025");
  await expect(sip).toContainText("14:00 - 18:00");
  await expect(sip).toContainText("Styling tips, networking, social media storytelling");
  const workshop = cards.filter({ hasText: "Transform Tablecloth" });
  await expect(workshop).toContainText("R250 per month");
  await expect(workshop).toContainText("3 hours");
  await expect(workshop).toContainText("Maximum 8 participants");
  const radiance = cards.filter({ hasText: "Radiance Reset" });
  await expect(radiance).toContainText("23 and 30 August 2025");
  await expect(radiance).toContainText("Skincare, sustainable styling, confidence building");
  const heritage = cards.filter({ hasText: "Heritage Radiance" });
  await expect(heritage).toContainText("Date to be announced");
  await expect(heritage).toContainText("R200 - R300");
});

test("sip-style tickets: the three options and prices of section 9", async ({ page }) => {
  await page.goto("/tickets/sip-style");
  const tickets = page.getByRole("region", { name: "Tickets" });
  for (const [type, price] of [
    ["Early Bird", "R 350.00"],
    ["Come With a Friend", "R 500.00"],
    ["Normal Price", "R 450.00"],
  ]) {
    await expect(tickets.getByRole("listitem").filter({ hasText: type })).toContainText(price);
  }
  await expect(tickets.getByRole("link", { name: /Buy Ticket/ })).toHaveCount(2);
  await expect(tickets.getByRole("button", { name: "Available from 15 September" })).toBeDisabled();
});

test.describe("sip-style carousel", () => {
  const slide = (page: Page) =>
    page
      .getByRole("region", { name: /photos/ })
      .getByRole("group")
      .filter({ visible: true })
      .getAttribute("aria-label");

  test("four slides that loop forwards and backwards with the arrow keys", async ({ page }) => {
    await page.goto("/tickets/sip-style");
    const carousel = page.getByRole("region", { name: /photos/ });
    await expect(carousel.locator('[aria-roledescription="slide"]')).toHaveCount(4);
    await carousel.focus();
    for (const expected of [2, 3, 4, 1]) {
      await page.keyboard.press("ArrowRight");
      expect(await slide(page)).toBe(`Slide ${expected} of 4`);
    }
    await page.keyboard.press("ArrowLeft");
    expect(await slide(page)).toBe("Slide 4 of 4");
    await carousel.getByRole("button", { name: "Next slide" }).click();
    expect(await slide(page)).toBe("Slide 1 of 4");
  });

  test("pauses while the pointer is over it", async ({ page }) => {
    await page.goto("/tickets/sip-style");
    await page.getByRole("region", { name: /photos/ }).hover();
    await page.waitForTimeout(3600);
    expect(await slide(page)).toBe("Slide 1 of 4");
    await page.mouse.move(0, 0);
    await expect.poll(() => slide(page), { timeout: 5000 }).toBe("Slide 2 of 4");
  });

  test("never moves by itself for visitors who prefer reduced motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/tickets/sip-style");
    await page.waitForTimeout(3600);
    expect(await slide(page)).toBe("Slide 1 of 4");
    // The arrow keys still work.
    await page.getByRole("region", { name: /photos/ }).focus();
    await page.keyboard.press("ArrowRight");
    expect(await slide(page)).toBe("Slide 2 of 4");
  });
});

test("ticket pages: back to the home events section, gallery button only where the spec says", async ({ page }) => {
  await page.goto("/tickets/radiance-reset");
  await page.getByRole("link", { name: /Back to Events/ }).click();
  await expect(page).toHaveURL(/\/#events$/);
  await expect(page.locator("section#events")).toBeInViewport();
  await page.goto("/tickets/heritage-radiance");
  await expect(page.getByRole("heading", { name: "Tickets Coming Soon" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Buy|Available/ })).toHaveCount(0);
});

test("workshop: five photos to choose from, learning points and details", async ({ page }) => {
  await page.goto("/workshop/tablecloth-skirt");
  const thumbs = page.getByRole("button", { name: /Show photo/ });
  await expect(thumbs).toHaveCount(5);
  await thumbs.nth(4).click();
  await expect(page.getByRole("img", { name: "Workshop photo 5 of 5" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "What You'll Learn" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Workshop Details" })).toBeVisible();
  for (const text of ["Monthly", "3 hours", "Maximum 8 participants", "R250"]) {
    await expect(page.getByRole("definition").filter({ hasText: text }).first()).toBeVisible();
  }
});

test("membership: every tier shows its monthly price; the page starts at the top", async ({ page }) => {
  for (const tier of membershipsSeed) {
    await page.goto(`/membership/${tier.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: tier.name })).toBeVisible();
    await expect(page.getByRole("main")).toContainText(
      tier.priceCents === null ? "Contact Us" : `${tier.priceText} / month`,
    );
  }
  await page.goto("/membership/creative-bee");
  await expect(page.getByText("MOST POPULAR", { exact: true })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("Workshop discounts of 10-15%");

  await page.setViewportSize({ width: 390, height: 700 });
  await page.goto("/");
  const plan = page.getByRole("link", { name: "Choose Plan: The Purposeful Bee" });
  await plan.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  await plan.click();
  await expect(page).toHaveURL(/\/membership\/purposeful-bee$/);
  await expect(page.getByRole("heading", { level: 1, name: "The Purposeful Bee" })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await page.getByRole("link", { name: /Back to Home/ }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("home: the contact section shows the contact information and social links in a new tab", async ({ page }) => {
  await page.goto("/");
  const contact = page.locator("section#contact");
  await expect(contact.getByRole("heading", { name: "Contact Information" })).toBeVisible();
  await expect(contact.getByRole("link", { name: /@/ })).toHaveAttribute("href", /^mailto:/);
  await expect(contact).toContainText("GMT+2");
  for (const name of ["Facebook", "Instagram", "LinkedIn"]) {
    const link = contact.getByRole("link", { name: new RegExp(name) });
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  }
  for (const label of ["First Name", "Last Name", "Subject", "Message"]) {
    await expect(contact.getByLabel(label, { exact: true })).toBeVisible();
  }
  await expect(contact.getByLabel("Email", { exact: true })).toHaveAttribute("type", "email");
});

test("home: the video is a poster image until played; nothing from the video host loads before", async ({ page }) => {
  const thirdParty: string[] = [];
  page.on("request", (r) => {
    if (
      !r.url().startsWith("http://localhost") &&
      !r.url().startsWith("http://127.0.0.1") &&
      !r.url().startsWith("data:")
    )
      thirdParty.push(r.url());
  });
  await page.route("https://www.youtube-nocookie.com/**", (route) => route.fulfill({ body: "<title>video</title>" }));
  await page.goto("/");
  const play = page.getByRole("button", { name: /Play video/ });
  await play.scrollIntoViewIfNeeded();
  await expect(play.locator("img")).toHaveAttribute("src", "/images/community/video-poster.svg");
  expect(thirdParty).toEqual([]);
  await play.click();
  const frame = page.locator("iframe");
  await expect(frame).toHaveAttribute("src", /^https:\/\/www\.youtube-nocookie\.com\/embed\/[\w-]+\?autoplay=1/);
  await expect(frame).toHaveAttribute("title", /.+/);
});

test("every external link opens in a new tab without access to this page", async ({ page }) => {
  for (const path of ["/", "/contact", "/about", "/events", "/product/beaded-jewellery"]) {
    await page.goto(path);
    const external = page.locator('a[href^="http"]');
    for (const link of await external.all()) {
      const href = await link.getAttribute("href");
      if (href?.startsWith("http://localhost") || href?.startsWith("http://127.0.0.1")) continue;
      await expect(link, `${path} ${href}`).toHaveAttribute("target", "_blank");
      await expect(link, `${path} ${href}`).toHaveAttribute("rel", "noopener noreferrer");
    }
  }
});

test(
  "images: every image is a file under /images with width and height and AVIF and WebP renditions; only the first " +
    "screen loads eagerly",
  async ({ page, request }) => {
    const seen = new Set<string>();
    const renditions = new Set<string>();
    for (const path of [
      "/",
      "/styled-collections",
      "/consultation-services",
      "/product/beaded-jewellery",
      "/events",
      "/tickets/sip-style",
      "/tickets/radiance-reset",
      "/tickets/heritage-radiance",
      "/workshop/tablecloth-skirt",
      "/about",
      "/events-gallery",
      "/test",
    ]) {
      await page.goto(path);
      const images = await page.locator("main img").evaluateAll((els) =>
        els.map((el) => {
          const img = el as HTMLImageElement;
          const avif =
            img.parentElement?.tagName === "PICTURE"
              ? img.parentElement.querySelector('source[type="image/avif"]')
              : null;
          return {
            src: img.getAttribute("src") ?? "",
            srcset: img.getAttribute("srcset") ?? "",
            sizes: img.getAttribute("sizes") ?? "",
            avif: avif?.getAttribute("srcset") ?? "",
            avifSizes: avif?.getAttribute("sizes") ?? "",
            width: img.getAttribute("width"),
            height: img.getAttribute("height"),
            loading: img.loading,
            top: img.getBoundingClientRect().top + window.scrollY,
          };
        }),
      );
      expect(images.length, path).toBeGreaterThan(0);
      for (const img of images) {
        expect(img.src, path).toMatch(/^\/images\/[\w/-]+\.(svg|png|jpe?g|webp|avif)$/);
        expect(Number(img.width), `${path} ${img.src} width`).toBeGreaterThan(0);
        expect(Number(img.height), `${path} ${img.src} height`).toBeGreaterThan(0);
        // Anything starting below two screens must be lazy.
        if (img.top > 1800) expect(img.loading, `${path} ${img.src}`).toBe("lazy");
        // A phone fetches a small AVIF (or WebP): 400, 800 and 1200 px wide, named after the original.
        const base = img.src.replace(/\.\w+$/, "");
        const widths = (format: string) =>
          `${base}.400w.${format} 400w, ${base}.800w.${format} 800w, ${base}.1200w.${format} 1200w`;
        expect(img.avif, `${path} ${img.src} AVIF source`).toBe(widths("avif"));
        expect(img.srcset, `${path} ${img.src} srcset`).toBe(widths("webp"));
        expect(img.sizes, `${path} ${img.src} sizes`).toMatch(/\d(px|vw)$/);
        expect(img.avifSizes, `${path} ${img.src} AVIF sizes`).toBe(img.sizes);
        seen.add(img.src);
        for (const candidate of `${img.avif}, ${img.srcset}`.split(", ")) renditions.add(candidate.split(" ")[0]!);
      }
    }
    for (const src of seen) {
      const res = await request.get(src);
      expect(res.status(), src).toBe(200);
    }
    for (const src of renditions) {
      const res = await request.get(src);
      expect(res.status(), src).toBe(200);
      expect(res.headers()["content-type"], src).toBe(src.endsWith(".avif") ? "image/avif" : "image/webp");
    }
  },
);

test("images: a phone downloads the small AVIF rendition, a wide screen a larger one", async ({ browser }) => {
  const shown = async (viewport: { width: number; height: number }, deviceScaleFactor: number) => {
    const context = await browser.newContext({ viewport, deviceScaleFactor });
    const page = await context.newPage();
    await page.goto("/styled-collections");
    const first = page.locator("main ul img").first();
    await expect(first).toHaveJSProperty("complete", true);
    const src = await first.evaluate((img: HTMLImageElement) => img.currentSrc);
    await context.close();
    return src;
  };
  // Two cards a row on a 390 px phone at 2x: about 370 device pixels per card.
  expect(await shown({ width: 390, height: 844 }, 2)).toMatch(/\/images\/\w+\/[\w-]+\.400w\.avif$/);
  // Three cards a row at 1280 px and 2x: 700 device pixels per card.
  expect(await shown({ width: 1280, height: 900 }, 2)).toMatch(/\/images\/\w+\/[\w-]+\.800w\.avif$/);
});

test("home: the hero says the spec's words and its image is preloaded and loads first", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("section#hero")).toContainText(
    "Where sustainable fashion meets beauty. We upcycle and recycle clothing & accessories, styling them on our beautiful Honeys.",
    { useInnerText: true },
  );
  // The preload carries the AVIF source's srcset and sizes, so the browser fetches the rendition it will show.
  const preload = page.locator(
    'link[rel="preload"][as="image"][type="image/avif"][imagesrcset^="/images/hero/hero.400w.avif 400w"]',
  );
  await expect(preload).toHaveCount(1);
  await expect(preload).toHaveAttribute("fetchpriority", "high");
  await expect(preload).toHaveAttribute(
    "imagesizes",
    (await page.locator("section#hero img").getAttribute("sizes")) ?? "missing",
  );
  await expect(page.locator("section#hero img")).toHaveAttribute("loading", "eager");
});

test("SEO: every public page has its own title, a description, a canonical URL and Open Graph tags", async ({
  page,
}) => {
  const titles = new Set<string>();
  const pages = [
    "/",
    "/styled-collections",
    "/consultation-services",
    "/product/beaded-jewellery",
    "/events",
    "/tickets/sip-style",
    "/tickets/radiance-reset",
    "/tickets/heritage-radiance",
    "/workshop/tablecloth-skirt",
    "/membership/style-starter",
    "/membership/starter-bee",
    "/about",
    "/contact",
    "/events-gallery",
    "/test",
  ];
  for (const path of pages) {
    await page.goto(path);
    const title = await page.title();
    expect(title, path).toMatch(/Honey Bee Sustainable Fashion/);
    titles.add(title);
    const description = await page.locator('meta[name="description"]').getAttribute("content");
    expect(description?.length ?? 0, `${path} description`).toBeGreaterThan(30);
    const canonical = await page.locator('link[rel="canonical"]').getAttribute("href");
    expect(new URL(canonical!).pathname, path).toBe(path);
    for (const property of ["og:title", "og:description", "og:url", "og:image", "og:type"]) {
      await expect(page.locator(`meta[property="${property}"]`), `${path} ${property}`).toHaveCount(1);
    }
  }
  expect(titles.size).toBe(pages.length);
  await page.goto("/tickets/sip-style");
  const ld = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.parse(t));
  expect(ld).toContainEqual(expect.objectContaining({ "@type": "Event", name: "Sip & Style at Nanas" }));
  await page.goto("/product/choker-necklaces");
  const product = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((t) =>
    JSON.parse(t),
  );
  expect(product[0]).toMatchObject({
    "@type": "Product",
    offers: { priceCurrency: "ZAR", price: "450.00", availability: "https://schema.org/OutOfStock" },
  });
  const og = await page.locator('meta[property="og:image"]').getAttribute("content");
  expect((await page.request.get(og!)).headers()["content-type"]).toBe("image/png");
});

test("sitemap lists every public page once and nothing private; robots points at it", async ({ request }) => {
  const xml = await (await request.get("/sitemap.xml")).text();
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  expect(new Set(locs).size).toBe(locs.length);
  for (const path of [
    "/",
    "/styled-collections",
    "/consultation-services",
    "/events",
    "/events-gallery",
    "/about",
    "/contact",
    "/blog",
    "/workshop/tablecloth-skirt",
    "/tickets/sip-style",
    "/tickets/radiance-reset",
    "/tickets/heritage-radiance",
    "/product/beaded-jewellery",
    "/membership/vip-sustainable-woman",
  ]) {
    expect(locs, path).toContain(path);
  }
  for (const path of locs) {
    expect(path).not.toMatch(/^\/(admin|checkout|order-confirmation|payments|api)/);
    expect(path).not.toBe("/tickets/tablecloth-workshop");
  }
  for (const path of locs.slice(0, 40)) {
    expect((await request.get(path, { maxRedirects: 0 })).status(), path).toBe(200);
  }
  const robots = await request.get("/robots.txt");
  expect(robots.headers()["content-type"]).toMatch(/^text\/plain/);
  expect(await robots.text()).toMatch(
    /User-agent: \*[\s\S]*Disallow: \/admin[\s\S]*Sitemap: http:\/\/[^\s]+\/sitemap\.xml/,
  );
});
