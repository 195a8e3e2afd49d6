import { type Page } from "@playwright/test";
import { startSmtpSink } from "../fakes/smtp-sink";
import { expectUsableAtPhoneAndLaptop } from "./support/admin";
import { emailedSignInLink } from "./support/member";
import { startInstance, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 42 in the browser, on an instance of its own whose mail goes to an SMTP sink: the owner writes
 * a post for Glow Bee members; an anonymous visitor sees its excerpt, the lock and "Join to read"; a
 * buyer of the Glow Bee membership signs in with the emailed link and reads the whole post.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const MEMBER = "lindiwe@example.test";
const TITLE = "What we dyed with onion skins";
const EXCERPT = "A month of dye pots, for our Glow Bees.";
const TEXT = "Two handfuls of onion skins to one litre of water give the warm gold of our September pieces.";
let app: Instance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let slug = "";
const url = (p: string) => `${app.base}${p}`;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  sink = await startSmtpSink();
  app = await startInstance({ APP_NOW: "2025-09-10T10:00:00+02:00", SMTP_URL: sink.url });
});
test.afterAll(async () => {
  await app?.stop();
  await sink?.close();
});

async function signInAsOwner(page: Page) {
  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill("instance-admin-password");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(url("/admin"));
}

test("the owner writes a post for Glow Bee members; a visitor sees its excerpt, the lock and Join to read", async ({
  page,
  browser,
}) => {
  await signInAsOwner(page);
  await expectUsableAtPhoneAndLaptop(page, url("/admin/blog/new"));
  await page.getByLabel("Title").fill(TITLE);
  await page.getByLabel("Excerpt").fill(EXCERPT);
  await page.getByLabel("Content").fill(TEXT);
  await page.getByLabel("Who can read it").selectOption({ label: "Members of the plans ticked below" });
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Tick at least one plan, or choose another audience.")).toBeVisible();
  await page.getByRole("checkbox", { name: "Glow Bee", exact: true }).check();
  await page.setViewportSize({ width: 390, height: 900 });
  await page.getByRole("group", { name: "Plans that can read it" }).screenshot({
    path: "test-results/members-only-editor-390.png",
  });
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page).toHaveURL(/\/admin\/blog\/\d+$/);
  slug = new URL(
    await page.getByRole("link", { name: "View on the blog" }).evaluate((a) => (a as HTMLAnchorElement).href),
  ).pathname;
  await page.context().close();

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(url("/blog"));
  const card = visitor.getByRole("article").filter({ hasText: TITLE });
  await expect(card.getByText("For Glow Bee members")).toBeVisible();
  await expect(card.getByText(EXCERPT)).toBeVisible();
  await expect(visitor.getByText(TEXT)).toHaveCount(0);
  await card.getByRole("link", { name: /Read More/ }).click();
  await expect(visitor.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  await expect(visitor.getByRole("heading", { name: "This post is for Glow Bee members" })).toBeVisible();
  await expect(visitor.getByRole("link", { name: "Join to read" })).toHaveAttribute("href", "/membership/glow-bee");
  expect(await visitor.content()).not.toContain(TEXT);
  await expectUsableAtPhoneAndLaptop(visitor, url(slug));
  await visitor.setViewportSize({ width: 390, height: 900 });
  await visitor.goto(url(slug));
  await visitor.screenshot({ path: "test-results/members-only-locked-390.png", fullPage: true });
  await visitor.context().close();
});

test("a Glow Bee member signs in with the emailed link and reads the whole post", async ({ page }) => {
  await page.goto(url("/membership/glow-bee"));
  await page.getByRole("link", { name: "Choose Plan" }).click();
  await page.getByLabel("First Name").fill("Lindiwe");
  await page.getByLabel("Last Name").fill("Zungu");
  await page.getByLabel("Email").fill(MEMBER);
  await page.getByLabel("Phone").fill("082 555 0178");
  await page.getByLabel("Address").fill("3 Bree Street\nCape Town");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/simulator\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: /^Pay R/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();

  await page.goto(await emailedSignInLink(page, sink, MEMBER, url));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(url("/account"));

  await page.goto(url(slug));
  await expect(page.getByText(TEXT)).toBeVisible();
  await expect(page.getByRole("link", { name: "Join to read" })).toHaveCount(0);
  await expect(page.getByText("For Glow Bee members")).toBeVisible();
  const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
  expect(jsonLd.join("\n")).toContain('"isAccessibleForFree":false');
  expect(jsonLd.join("\n")).not.toContain(TEXT);
  await expectUsableAtPhoneAndLaptop(page, url(slug));

  // What the shared cache and search engines get, after a member has read it: the locked page.
  for (let i = 0; i < 2; i++) {
    const anonymous = await fetch(url(slug));
    expect(await anonymous.text()).not.toContain(TEXT);
  }
  const cached = await fetch(url(slug));
  expect(cached.headers.get("x-page-cache")).toBe("HIT");
  expect(await cached.text()).toContain("Join to read");
  expect(await (await fetch(url("/sitemap.xml"))).text()).not.toContain(TEXT);
});
