import { simpleParser } from "mailparser";
import { startSmtpSink } from "../fakes/smtp-sink";
import { expectUsableAtPhoneAndLaptop } from "./support/admin";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 42: the owner publishes a post for Glow Bee members with "Email this post to its readers when
 * published" ticked; the Glow Bee member receives it once, with the whole text and the way out.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

const MEMBER = "thandeka.mokoena-van-der-merwe@example.test";
const TITLE = "What the onion skins gave us this month, and how to dye a tablecloth skirt at home";
const TEXT = "Two handfuls of onion skins to one litre of rainwater give the warm gold of our September pieces.";
const PASSWORD = "post-email-owner-password";
let app: Instance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const url = (p: string) => `${app.base}${p}`;
const SHOTS = process.env.NEWS_SCREENSHOTS;
/** The post's admin page path until it is published, then its public path. */
let slug = "";

test.beforeAll(async () => {
  test.setTimeout(90_000);
  sink = await startSmtpSink();
  app = await startInstance({
    DATA_DIR: tempDataDir(),
    APP_NOW: "2025-09-10T10:00:00+02:00",
    SMTP_URL: sink.url,
    ADMIN_PASSWORD: PASSWORD,
  });
});
test.afterAll(async () => {
  await app?.stop();
  await sink?.close();
});

test("publishing a Glow Bee post with the box ticked emails it to the Glow Bee member, once", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url("/membership/glow-bee"));
  await page.getByRole("link", { name: "Choose Plan" }).click();
  await page.getByLabel("First Name").fill("Thandeka");
  await page.getByLabel("Last Name").fill("Mokoena-van der Merwe");
  await page.getByLabel("Email", { exact: true }).fill(MEMBER);
  await page.getByLabel("Phone").fill("082 555 0178");
  await page.getByLabel("Address", { exact: true }).fill("3 Bree Street\nCape Town");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/simulator\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: /^Pay R/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();

  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(url("/admin"));
  await page.goto(url("/admin/blog/new"));
  const newBox = page.getByRole("checkbox", { name: "Email this post to its readers when published" });
  await expect(newBox).not.toBeChecked();
  if (SHOTS) {
    await newBox.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/post-new-email-box-390.png` });
  }
  await page.getByLabel("Title").fill(TITLE);
  await page.getByLabel("Excerpt").fill("A month of dye pots, for our Glow Bees.");
  await page.getByLabel("Content").fill(TEXT);
  await page.getByLabel("Who can read it").selectOption({ label: "Members of the plans ticked below" });
  await page.getByRole("checkbox", { name: "Glow Bee", exact: true }).check();
  await page.getByRole("button", { name: "Save as draft" }).click();
  await expect(page).toHaveURL(/\/admin\/blog\/\d+$/);
  const draft = page.url();
  slug = new URL(draft).pathname;

  const box = page.getByRole("checkbox", { name: "Email this post to its readers when published" });
  await expect(box).not.toBeChecked();
  await expect(page.getByText(/active members of the post's plans.*\(1 reader today\)/)).toBeVisible();
  await expectUsableAtPhoneAndLaptop(page, draft);
  await page.setViewportSize({ width: 390, height: 900 });
  if (SHOTS) {
    await box.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/post-email-box-390.png` });
  }
  await box.check();
  await page.getByRole("button", { name: `Publish ${TITLE}` }).click();
  await expect(page.getByText("Post published and emailed")).toBeVisible();
  await expect(page.getByRole("link", { name: "See how it went" })).toBeVisible();
  slug = new URL(
    await page.getByRole("link", { name: "View on the blog" }).evaluate((a) => (a as HTMLAnchorElement).href),
  ).pathname;
  await expect(page.getByRole("button", { name: "Email this post to its readers" })).toHaveCount(0);
  if (SHOTS) {
    await page.getByRole("heading", { name: "Email to its readers" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/post-emailed-390.png` });
  }
  await expectUsableAtPhoneAndLaptop(page, draft);

  const mailsOfPost = async () => {
    const found = [];
    for (const message of sink.messages) {
      const mail = await simpleParser(message.raw);
      if (mail.subject === TITLE) found.push({ to: message.to[0], mail });
    }
    return found;
  };
  await expect.poll(async () => (await mailsOfPost()).length, { timeout: 60_000 }).toBeGreaterThan(0);
  const mails = await mailsOfPost();
  expect(mails.map((m) => m.to)).toEqual([MEMBER]);
  expect(mails[0]!.mail.text).toContain(TEXT);
  const post = mails[0]!.mail.headerLines.find((h) => h.key === "list-unsubscribe-post")?.line;
  expect(post).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  expect(mails[0]!.mail.text).toContain("Unsubscribe with one click");
});

test("the signed-in owner previews the members' post on its public page; a visitor still gets the lock", async ({
  page,
  browser,
}) => {
  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(url("/admin"));
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url(slug));
  await expect(page.getByRole("note", { name: "Preview: members only" })).toBeVisible();
  await expect(page.getByText(TEXT)).toBeVisible();
  await expect(page.getByRole("link", { name: "Join to read" })).toHaveCount(0);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/post-preview-390.png`, fullPage: true });
  await expectUsableAtPhoneAndLaptop(page, url(slug));

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(url(slug));
  await expect(visitor.getByRole("link", { name: "Join to read" })).toBeVisible();
  expect(await visitor.content()).not.toContain(TEXT);
  expect(await visitor.content()).not.toContain("Preview: members only");
  for (let i = 0; i < 2; i++) expect(await (await fetch(url(slug))).text()).not.toContain(TEXT);
  const cached = await fetch(url(slug));
  expect(cached.headers.get("x-page-cache")).toBe("HIT");
  expect(await cached.text()).not.toContain(TEXT);
  await visitor.context().close();
});
