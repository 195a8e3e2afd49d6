import sharp from "sharp";
import { simpleParser } from "mailparser";
import { startSmtpSink } from "../fakes/smtp-sink";
import { expectUsableAtPhoneAndLaptop } from "./support/admin";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 42: the owner adds photos from the media library and a product card to a newsletter; the
 * preview at phone width shows them, and the test email carries them as the site's own absolute
 * renditions in the HTML and as plain links in the text part.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

const NOW = "2025-09-10T10:00:00+02:00";
const PASSWORD = "newsletter-cards-owner-password";
let app: Instance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const url = (p: string) => `${app.base}${p}`;
const SHOTS = process.env.NEWS_SCREENSHOTS;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  sink = await startSmtpSink();
  app = await startInstance({ DATA_DIR: tempDataDir(), APP_NOW: NOW, SMTP_URL: sink.url, ADMIN_PASSWORD: PASSWORD });
});
test.afterAll(async () => {
  await app?.stop();
  await sink?.close();
});

const photo = (colour: { r: number; g: number; b: number }) =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: colour } })
    .jpeg({ quality: 85 })
    .toBuffer();

test("photos and a product card reach the preview and the email, with absolute renditions and plain links", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(url("/admin"));

  await page.goto(url("/admin/newsletters/new"));
  const title = "Three new tablecloth skirts from the Woodstock market, and the workshop to make your own";
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Text").fill("## This month\n\nThree skirts, one of each colour, cut from tablecloths.");
  await page.getByLabel("Add photos").setInputFiles([
    { name: "indigo.jpg", mimeType: "image/jpeg", buffer: await photo({ r: 40, g: 60, b: 150 }) },
    { name: "saffron.jpg", mimeType: "image/jpeg", buffer: await photo({ r: 230, g: 160, b: 30 }) },
  ]);
  await expect(page.getByLabel(/Alt text/)).toHaveCount(2, { timeout: 30_000 });
  await page.getByLabel("Alt text for photo 1").fill("The indigo skirt on the line in the garden");
  await page.getByLabel("Alt text for photo 2").fill("The saffron skirt, folded");
  const cardSelect = page.getByLabel("A card from the shop");
  const productOption = cardSelect.locator("option", { hasText: /^Product: / }).first();
  const productLabel = (await productOption.textContent())!.replace(/^Product: /, "");
  await cardSelect.selectOption({ label: `Product: ${productLabel}` });
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("heading", { name: "Preview at phone width" })).toBeVisible();

  const preview = page.getByRole("region", { name: "Preview at phone width" });
  await expect(preview.getByRole("img", { name: "The indigo skirt on the line in the garden" })).toBeVisible();
  await expect(preview.getByRole("img", { name: "The saffron skirt, folded" })).toBeVisible();
  await expect(preview.getByText(productLabel, { exact: true })).toBeVisible();
  await expect(preview.getByRole("link", { name: "See it in the shop" })).toHaveAttribute("href", /^\/product\//);
  await expect(page.getByLabel("A card from the shop")).toHaveValue(/^product:\d+$/);
  if (SHOTS) {
    await preview.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/newsletter-card-390.png`, fullPage: true });
  }
  await expectUsableAtPhoneAndLaptop(page, page.url());

  await page.setViewportSize({ width: 390, height: 900 });
  await page.getByRole("button", { name: "Send a test to me" }).click();
  await expect(page.getByText("Test sent")).toBeVisible();
  let mail: Awaited<ReturnType<typeof simpleParser>> | undefined;
  await expect
    .poll(
      async () => {
        for (const message of sink.messages) {
          const parsed = await simpleParser(message.raw);
          if (parsed.subject === `[Test] ${title}`) mail = parsed;
        }
        return mail !== undefined;
      },
      { timeout: 45_000 },
    )
    .toBe(true);
  const html = String(mail!.html);
  const text = mail!.text ?? "";
  const images = [...html.matchAll(/<img[^>]* src="([^"]+)"/g)].map((m) => m[1]!);
  const photos = images.filter((src) => /\/media\/[0-9a-f]{20}\.800w\.webp$/.test(src));
  expect(photos).toHaveLength(2);
  // The instance's site URL names it as localhost; the test reaches it as 127.0.0.1.
  const site = app.base.replace("127.0.0.1", "localhost");
  for (const src of images) expect(src.startsWith(`${site}/`), src).toBe(true);
  for (const src of photos) expect(text).toContain(src);
  const escaped = productLabel.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  expect(text).toMatch(new RegExp(`${escaped}, .+: ${site}/product/`));
  expect(html).toMatch(new RegExp(`href="${site}/product/[^"]+"`));
  // The rendition the email names is served by the site itself.
  const served = await page.request.get(photos[0]!.replace(site, app.base));
  expect(served.status()).toBe(200);
});
