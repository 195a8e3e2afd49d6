import { type Browser, type Page } from "@playwright/test";
import sharp from "sharp";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 19's product journey, on an instance of its own: the owner adds a dress with two photos in one
 * browser; a visitor in another sees it with the badge its stock gives, buys one and sees the stock
 * drop; a new price applies to new checkouts while the earlier order keeps what it charged. Photos that
 * are not images or too large are refused with a message, and a served photo carries no GPS position.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const PASSWORD = "products-admin-password";
let app: Instance;
const url = (p: string) => `${app.base}${p}`;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  app = await startInstance({
    DATA_DIR: tempDataDir(),
    APP_NOW: "2025-09-10T10:00:00+02:00",
    ADMIN_PASSWORD: PASSWORD,
  });
});
test.afterAll(async () => {
  await app?.stop();
});

/** A phone-like JPEG with a GPS position in its EXIF (where the owner's home is, say). */
async function phonePhoto(colour: { r: number; g: number; b: number }) {
  return sharp({ create: { width: 1600, height: 1200, channels: 3, background: colour } })
    .jpeg({ quality: 85 })
    .withExif({
      IFD0: { Make: "PhonePhone", Model: "X" },
      IFD3: { GPSLatitudeRef: "S", GPSLatitude: "26/1 12/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "28/1 2/1 0/1" },
    })
    .toBuffer();
}

async function ownerPage(browser: Browser): Promise<Page> {
  const owner = await (await browser.newContext()).newPage();
  await owner.goto(url("/admin/login"));
  await owner.getByLabel("Password").fill(PASSWORD);
  await owner.getByRole("button", { name: "Sign In" }).click();
  await expect(owner).toHaveURL(/\/admin$/);
  return owner;
}

async function buyDress(page: Page, expectedPrice: string) {
  await page.goto(url("/product/shweshwe-wrap-dress"));
  await page.getByRole("link", { name: "Order Now" }).click();
  await expect(page.getByText(expectedPrice).first()).toBeVisible();
  await page.getByLabel("First Name").fill("Naledi");
  await page.getByLabel("Last Name").fill("Sithole");
  await page.getByLabel("Email").fill("naledi@example.test");
  await page.getByLabel("Phone").fill("082 555 0177");
  await page.getByLabel("Address").fill("3 Juta Street\nBraamfontein");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("button", { name: `Pay ${expectedPrice}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
}

let photoSrc = "";

test("the owner adds a dress with two photos; a visitor sees it with its badge, buys one and the stock drops", async ({
  browser,
  page,
}) => {
  const owner = await ownerPage(browser);
  await owner.goto(url("/admin/products/new"));
  await owner.getByLabel("Name", { exact: true }).fill("Shweshwe Wrap Dress");
  await owner.getByLabel("Price (R)").fill("650");
  await owner.getByLabel("Description").fill("A wrap dress cut from reclaimed shweshwe.");
  await owner.getByLabel("Stock").fill("3");
  await owner.getByLabel("Add photos").setInputFiles([
    { name: "front.jpg", mimeType: "image/jpeg", buffer: await phonePhoto({ r: 190, g: 60, b: 40 }) },
    { name: "back.jpg", mimeType: "image/jpeg", buffer: await phonePhoto({ r: 40, g: 90, b: 160 }) },
  ]);
  await expect(owner.getByLabel(/Alt text/)).toHaveCount(2, { timeout: 30_000 });
  await owner.getByLabel("Alt text for photo 1").fill("The wrap dress on a Honey, front");
  await owner.getByLabel("Alt text for photo 2").fill("The wrap dress, back");
  await owner.getByRole("button", { name: "Add product" }).click();
  await expect(owner.getByText("Product added")).toBeVisible();

  await page.goto(url("/styled-collections"));
  const card = page.getByRole("link", { name: /Shweshwe Wrap Dress/ });
  await expect(card).toContainText("3 LIMITED STOCK!");
  await expect(card.getByRole("img", { name: "The wrap dress on a Honey, front" })).toBeVisible();
  await page.goto(url("/product/shweshwe-wrap-dress"));
  await expect(page.getByRole("heading", { level: 1, name: "Shweshwe Wrap Dress" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Show photo \d of 2/ })).toHaveCount(2);
  photoSrc = (await page.getByRole("img", { name: "The wrap dress on a Honey, front" }).getAttribute("src")) ?? "";
  expect(photoSrc).toMatch(/^\/media\/[a-f0-9]{20}\./);

  await buyDress(page, "R 650.00");
  await page.goto(url("/styled-collections"));
  await expect(page.getByRole("link", { name: /Shweshwe Wrap Dress/ })).toContainText("2 LIMITED STOCK!");
  await owner.goto(url("/admin/products?q=shweshwe"));
  await expect(owner.getByRole("cell", { name: "2", exact: true })).toBeVisible();
  await owner.context().close();
});

test("a new price applies to new checkouts; the earlier order keeps what it charged", async ({ browser, page }) => {
  const owner = await ownerPage(browser);
  await owner.goto(url("/admin/products?q=shweshwe"));
  await owner.getByRole("link", { name: "Shweshwe Wrap Dress" }).click();
  await owner.getByLabel("Price (R)").fill("700");
  await owner.getByRole("button", { name: "Save product" }).click();
  await expect(owner.getByText("Product saved")).toBeVisible();

  await page.goto(url("/product/shweshwe-wrap-dress"));
  await expect(page.getByText("R 700.00").first()).toBeVisible();
  await buyDress(page, "R 700.00");

  await owner.goto(url("/admin/orders?q=naledi%40example.test"));
  const rows = owner.getByRole("table", { name: "Orders" }).getByRole("row");
  await expect(rows.filter({ hasText: "R 700.00" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "R 650.00" })).toHaveCount(1);
  await owner.context().close();
});

test("a file that is not a photo, and one over 20 MB, are refused with a message and nothing is added", async ({
  browser,
}) => {
  const owner = await ownerPage(browser);
  await owner.goto(url("/admin/products/new"));
  await owner.getByLabel("Add photos").setInputFiles([
    { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a photo at all") },
    { name: "huge.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(21 * 1024 * 1024, 1) },
  ]);
  await expect(owner.getByRole("alert").filter({ hasText: "huge.jpg" })).toContainText("larger than 20 MB");
  await expect(
    owner
      .getByRole("alert")
      .filter({ hasText: /notes\.txt|not a photo|could not be read/i })
      .first(),
  ).toBeVisible({ timeout: 30_000 });
  await expect(owner.getByLabel(/Alt text/)).toHaveCount(0);
  await owner.context().close();
});

test("a served photo has no EXIF, so no GPS position", async ({ request }) => {
  expect(photoSrc).not.toBe("");
  for (const src of [
    photoSrc,
    photoSrc.replace(/\.[^/]+$/, ".webp"),
    photoSrc.replace(/(\.\d+w)?\.[a-z]+$/, ".400w.avif"),
  ]) {
    const response = await request.get(url(src));
    expect(response.status(), src).toBe(200);
    const meta = await sharp(await response.body()).metadata();
    expect(meta.exif, src).toBeUndefined();
  }
});
