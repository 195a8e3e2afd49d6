import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import jsQR from "jsqr";
import { simpleParser } from "mailparser";
import { PNG } from "pngjs";
import QRCode from "qrcode";
import { CHROMIUM_PATH } from "../../scripts/ensure-chromium.js";
import { startSmtpSink } from "../fakes/smtp-sink";
import { expect, test } from "./support/test";
import { startInstance, tempDataDir, type Instance } from "./support/instances";

/*
 * The door's camera where the browser has no BarcodeDetector (Safari on an iPhone, Firefox): the
 * page loads jsQR when the camera starts and admits a QR held in front of it with no tap. Chromium's
 * fake camera plays a .y4m file this spec writes from the ticket's QR code; the browser is launched
 * with the file's path, and reads the file when the page starts the camera.
 */
const WIDTH = 640;
const HEIGHT = 480;
const VIDEO = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "honey-camera-")), "ticket-qr.y4m");

/** Grey frames (4:2:0, the chroma planes neutral) of a PNG drawn centred on white: what the fake camera plays. */
function y4mFrom(png: PNG, frames = 10): Buffer {
  const luma = Buffer.alloc(WIDTH * HEIGHT, 255);
  const left = Math.floor((WIDTH - png.width) / 2);
  const top = Math.floor((HEIGHT - png.height) / 2);
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      luma[(top + y) * WIDTH + left + x] = Math.round(
        0.299 * png.data[i]! + 0.587 * png.data[i + 1]! + 0.114 * png.data[i + 2]!,
      );
    }
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), luma, chroma]);
  return Buffer.concat([
    Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`),
    ...Array.from({ length: frames }, () => frame),
  ]);
}

// The browser is started with this path: it must hold a video of the same size before the QR is known.
fs.writeFileSync(VIDEO, y4mFrom(new PNG({ width: 2, height: 2, fill: true })));

test.use({
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--use-fake-device-for-media-stream",
      // Without it the headless shell (decision 150) refuses the camera despite the context's grant.
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-video-capture=${VIDEO}`,
    ],
  },
});
test.setTimeout(120_000);

const PASSWORD = "camera-admin-password";
let app: Instance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const url = (p: string) => `${app.base}${p}`;

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
  fs.rmSync(path.dirname(VIDEO), { recursive: true, force: true });
});

test("a ticket's QR shown to the camera admits with no tap, decoded by jsQR loaded only when the camera starts", async ({
  page,
  context,
}) => {
  await page.goto(url("/workshop/tablecloth-skirt"));
  await page.getByRole("link", { name: /Join Monthly Workshop/ }).click();
  await page.getByLabel("First Name").fill("Khanyisile");
  await page.getByLabel("Last Name").fill("Mthembu-Van der Merwe");
  await page.getByLabel("Email").fill("khanyi@example.com");
  await page.getByLabel("Phone").fill("082 555 0199");
  await page.getByLabel("Address").fill("5 Vilakazi Street\nSoweto");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("button", { name: "Pay R 250.00" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();

  await expect.poll(() => sink.messages.some((m) => m.to[0] === "khanyi@example.com"), { timeout: 30_000 }).toBe(true);
  const mail = await simpleParser(sink.messages.find((m) => m.to[0] === "khanyi@example.com")!.raw);
  const emailed = PNG.sync.read(mail.attachments.find((a) => a.contentType === "image/png")!.content);
  const qrText = jsQR(new Uint8ClampedArray(emailed.data), emailed.width, emailed.height)!.data;
  fs.writeFileSync(VIDEO, y4mFrom(PNG.sync.read(await QRCode.toBuffer(qrText, { width: 360, margin: 4 }))));

  await context.grantPermissions(["camera"], { origin: app.base });
  await page.addInitScript(() => {
    delete (window as unknown as { BarcodeDetector?: unknown }).BarcodeDetector;
  });
  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);

  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  // Reached by the admin's menu, as the owner does: the page reloads itself for the camera (Permissions-Policy).
  await page.getByRole("navigation", { name: "Admin", exact: true }).getByRole("link", { name: "Check-in" }).click();
  await expect(page.getByText(/tickets saved on this device/)).toBeVisible();
  expect(await page.evaluate(() => "BarcodeDetector" in window)).toBe(false);
  expect(
    scripts.filter((s) => /jsQR/.test(s)),
    "jsQR before the camera starts",
  ).toEqual([]);

  await page.getByRole("button", { name: "Scan with camera" }).click();
  await expect(page.getByRole("status")).toHaveText("Admitted: Khanyisile Mthembu-Van der Merwe, Monthly Workshop", {
    timeout: 20_000,
  });
  expect(scripts.filter((s) => /jsQR/.test(s))).toHaveLength(1);
  await expect(page.getByTestId("door-counts")).toHaveText("1 of 1 checked in");
  await page.screenshot({ path: test.info().outputPath("door-camera.png") });
  // The camera is allowed in the door's document alone; every other page keeps camera=().
  const door = await page.request.get(url("/admin/check-in"));
  expect(door.headers()["permissions-policy"]).toContain("camera=(self)");
  for (const other of ["/admin", "/admin/orders", "/", "/admin/check-in/data?event=tablecloth-workshop"]) {
    expect((await page.request.get(url(other))).headers()["permissions-policy"], other).toContain("camera=()");
  }
  await page.getByRole("button", { name: "Stop camera" }).click();
  await expect(page.getByRole("button", { name: "Scan with camera" })).toBeVisible();
});
