import { expect, test } from "./support/test";
import { ADMIN_PASSWORD } from "./support/admin";

test("photo uploads: refused without a session; the signed-in owner's upload is served to anyone under /media", async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  // Anonymous: a real multipart upload gets 401 JSON and stores nothing.
  const anonymous = await request.post("/admin/photos", {
    headers: { Origin: baseURL! },
    multipart: { file: { name: "a.png", mimeType: "image/png", buffer: Buffer.from("not really") } },
  });
  expect(anonymous.status()).toBe(401);
  expect(await anonymous.json()).toEqual({ error: "Authentication required" });

  await page.goto("/admin/login");
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);

  // The browser's own XMLHttpRequest, as the photo picker sends it: a canvas drawn as PNG, with progress.
  const result = await page.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 640;
    canvas.height = 480;
    const context = canvas.getContext("2d")!;
    for (let x = 0; x < 640; x += 16) {
      context.fillStyle = `hsl(${x % 360} 80% 50%)`;
      context.fillRect(x, 0, 16, 480);
    }
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), "image/png"));
    return new Promise<{ status: number; body: unknown; progressed: boolean }>((resolve) => {
      const xhr = new XMLHttpRequest();
      let progressed = false;
      xhr.upload.onprogress = () => (progressed = true);
      xhr.open("POST", "/admin/photos");
      xhr.responseType = "json";
      xhr.onload = () => resolve({ status: xhr.status, body: xhr.response, progressed });
      const form = new FormData();
      form.set("file", blob, "stripes.png");
      xhr.send(form);
    });
  });
  expect(result.status).toBe(201);
  expect(result.progressed).toBe(true);
  const photo = (result.body as { photo: { src: string; width: number; height: number; name: string } }).photo;
  expect(photo).toEqual({
    src: expect.stringMatching(/^\/media\/[0-9a-f]{20}\.webp$/),
    width: 640,
    height: 480,
    name: "stripes.png",
  });

  // Another browser with no session sees the photo at once, then as immutable renditions.
  const visitor = await browser.newContext();
  try {
    const first = await visitor.request.get(photo.src, { headers: { "Accept-Encoding": "gzip, br" } });
    expect(first.status()).toBe(200);
    expect(first.headers()["content-type"]).toBe("image/webp");
    expect(first.headers()["content-encoding"]).toBeUndefined();
    const avif = photo.src.replace(".webp", ".400w.avif");
    await expect
      .poll(async () => (await visitor.request.get(avif)).headers()["cache-control"], { timeout: 30_000 })
      .toBe("public, max-age=31536000, immutable");
    const rendition = await visitor.request.get(avif);
    expect(rendition.headers()["content-type"]).toBe("image/avif");
    const etag = rendition.headers()["etag"]!;
    expect((await visitor.request.get(avif, { headers: { "If-None-Match": etag } })).status()).toBe(304);
    expect((await visitor.request.get("/media/0000000000aaaaaaaaaa.webp")).status()).toBe(404);

    const visitorPage = await visitor.newPage();
    await visitorPage.goto(photo.src);
    expect(
      await visitorPage.evaluate(() => (document.querySelector("img") as HTMLImageElement | null)?.naturalWidth),
    ).toBe(640);
  } finally {
    await visitor.close();
  }
});
