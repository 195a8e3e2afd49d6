import { expect, test } from "./support/test";
import { axe } from "./support/axe";
import { ADMIN_PASSWORD } from "./support/admin";

test("visitors see the blog with its sort options and no New Post button", async ({ page }) => {
  await page.goto("/blog");
  await expect(page.getByRole("heading", { name: "Our Blog", level: 1 })).toBeVisible();
  const sort = page.getByLabel("Sort by");
  await expect(sort.locator("option")).toHaveText(["Date (Newest)", "Most Views", "Most Likes", "Title (A-Z)"]);
  await expect(page.getByRole("link", { name: "New Post" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /Read More/ }).first()).toBeVisible();
  await sort.selectOption("title");
  await expect(page).toHaveURL(/sort=title/);
  // The select applied the sort itself, and the form still has its submit button (pa11y: WCAG 3.2.2).
  await expect(page.getByRole("button", { name: "Sort" })).toHaveCount(1);
  const titles = await page.getByRole("article").getByRole("heading", { level: 2 }).allTextContents();
  expect(titles).toEqual([...titles].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
});

test("an admin publishes a post in the dialog and a visitor reads and likes it", async ({ page, browser }) => {
  const title = `Visible Mending ${Date.now()}`;
  await page.goto("/admin/login");
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);

  await page.goto("/blog");
  await page.getByRole("link", { name: "New Post" }).click();
  const dialog = page.getByRole("dialog", { name: "New Post" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Author")).toHaveValue("Honey Bee");
  await expect(dialog.getByLabel("Category")).toHaveValue("General");

  // The spec: with a required field empty nothing happens.
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByRole("button", { name: "Publish Post" }).click();
  await expect(dialog).toBeVisible();

  await dialog.getByLabel("Excerpt").fill("Darning that shows, on purpose.");
  await dialog
    .getByLabel("Content")
    .fill("## Why mend\n\nA *visible* mend tells a story. <script>window.__pwned = true</script>");
  await dialog.getByRole("button", { name: "Publish Post" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await page.getByRole("link", { name: "New Post" }).click();
  await expect(dialog.getByLabel("Title")).toHaveValue("");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto("/blog");
  await expect(visitor.getByRole("heading", { name: title })).toBeVisible();
  await visitor
    .getByRole("article")
    .filter({ hasText: title })
    .getByRole("link", { name: /Read More/ })
    .click();
  await expect(visitor.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(visitor.getByRole("heading", { name: "Why mend" })).toBeVisible();
  await expect(visitor.getByText("<script>window.__pwned = true</script>")).toBeVisible();
  expect(await visitor.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined();
  await expect(visitor.getByText("1 view · 0 likes")).toBeVisible();
  await visitor.getByRole("button", { name: "Like" }).click();
  await expect(visitor.getByRole("button", { name: "Liked" })).toBeDisabled();
  await expect(visitor.getByText("1 view · 1 like")).toBeVisible();
  // A reload in the same session counts neither the view nor the like again.
  await visitor.reload();
  await expect(visitor.getByRole("button", { name: "Liked" })).toBeVisible();
  await expect(visitor.getByText("1 view · 1 like")).toBeVisible();
  await visitorContext.close();
});

test("sorting works before JavaScript loads", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/blog");
  await page.getByLabel("Sort by").selectOption("title");
  await page.getByRole("button", { name: "Sort" }).click();
  await expect(page).toHaveURL(/sort=title/);
  await expect(page.getByLabel("Sort by")).toHaveValue("title");
  await context.close();
});

test("an unknown post is a 404 'Post not found'", async ({ page }) => {
  const response = await page.goto("/blog/no-such-post");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Post not found" })).toBeVisible();
});

for (const width of [390, 1280]) {
  test(`the blog and a post have no axe violations at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/blog");
    expect((await (await axe(page)).analyze()).violations).toEqual([]);
    await page.goto("/blog/the-art-of-upcycling");
    await expect(page.getByRole("button", { name: /Like/ })).toBeVisible();
    expect((await (await axe(page)).analyze()).violations).toEqual([]);
  });
}
