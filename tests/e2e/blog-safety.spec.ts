import { expect, test } from "./support/test";
import { axe } from "./support/axe";
import { signInAsOwner } from "./support/admin";

/** Every way a post could try to run code; each one would set window.__pwned or open a dialog. */
const PAYLOADS = [
  "<script>window.__pwned = 'script'</script>",
  '<img src="x" onerror="window.__pwned = \'img\'">',
  "<svg onload=\"window.__pwned = 'svg'\"></svg>",
  "<iframe src=\"javascript:window.top.__pwned = 'iframe'\"></iframe>",
  "[click me](javascript:window.__pwned='link')",
  "![pic](javascript:window.__pwned='image')",
  '<a href="#" onclick="window.__pwned = \'click\'">html link</a>',
];

test("a post full of script payloads runs none of them, for visitors or the admin", async ({ page, browser }) => {
  const title = `Safe <img src=x onerror="window.__pwned='title'"> ${Date.now()}`;
  await signInAsOwner(page);
  await page.goto("/blog");
  await page.getByRole("link", { name: "New Post" }).click();
  const dialog = page.getByRole("dialog", { name: "New Post" });
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByLabel("Excerpt").fill(`<script>window.__pwned = 'excerpt'</script> An excerpt.`);
  await dialog.getByLabel("Content").fill(`# Payloads\n\n${PAYLOADS.join("\n\n")}\n\nThe end.`);
  await dialog.getByRole("button", { name: "Publish Post" }).click();
  await expect(dialog).toBeHidden();

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  const dialogs: string[] = [];
  visitor.on("dialog", async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  for (const viewer of [visitor, page]) {
    await viewer.goto("/blog");
    const card = viewer.getByRole("article").filter({ hasText: "An excerpt." });
    await expect(card.getByRole("heading", { level: 2 })).toHaveText(title);
    await card.getByRole("link", { name: /Read More/ }).click();
    await expect(viewer.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(viewer.getByRole("heading", { level: 2, name: "Payloads" })).toBeVisible();
    await expect(viewer.getByRole("heading", { name: "Payloads" })).toBeVisible();
    await expect(viewer.getByText("The end.")).toBeVisible();
    // The HTML is shown as text (with typographic quotes), not made into elements.
    await expect(viewer.getByText(/^<script>window\.__pwned = .script.<\/script>$/)).toBeVisible();
    await expect(viewer.getByText(/^<img src=.x. onerror=/)).toBeVisible();
    const body = viewer.locator(".post-body");
    await expect(body.locator("script, img, svg, iframe, [onclick], [onerror], [onload]")).toHaveCount(0);
    await expect(body.locator('a[href^="javascript:" i]')).toHaveCount(0);
    // Clicking whatever looks like a link does nothing either.
    for (const text of ["click me", "html link"]) {
      const candidate = body.getByText(text).first();
      if (await candidate.count()) await candidate.click();
    }
    expect(await viewer.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  }
  expect(dialogs).toEqual([]);
  await visitorContext.close();
});

for (const width of [390, 1280]) {
  test(`the blog with the New Post dialog open has no axe violations at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signInAsOwner(page);
    await page.goto("/blog");
    await page.getByRole("link", { name: "New Post" }).click();
    await expect(page.getByRole("dialog", { name: "New Post" })).toBeVisible();
    expect((await (await axe(page)).analyze()).violations).toEqual([]);
  });
}

test("post cards show the badge, author, date, excerpt, a 300-character preview with an ellipsis and Read More", async ({
  page,
}) => {
  const content = `${"Stitch by stitch. ".repeat(30)}THIS-IS-PAST-300`;
  const title = `Preview check ${Date.now()}`;
  await signInAsOwner(page);
  await page.goto("/blog");
  await page.getByRole("link", { name: "New Post" }).click();
  const dialog = page.getByRole("dialog", { name: "New Post" });
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByLabel("Excerpt").fill("The excerpt line.");
  await dialog.getByLabel("Category").fill("Mending");
  await dialog.getByLabel("Content").fill(content);
  await dialog.getByRole("button", { name: "Publish Post" }).click();
  await expect(dialog).toBeHidden();

  const card = page.getByRole("article").filter({ hasText: title });
  await expect(card).toContainText("Mending");
  await expect(card).toContainText("Honey Bee");
  await expect(card.locator("time")).toHaveText("10 September 2025");
  await expect(card).toContainText("The excerpt line.");
  await expect(card).toContainText(`${content.slice(0, 300)}...`);
  await expect(card).not.toContainText("THIS-IS-PAST-300");
  const slug = title.toLowerCase().replace(/ /g, "-");
  await expect(card.getByRole("link", { name: /Read More/ })).toHaveAttribute("href", `/blog/${slug}`);
});
