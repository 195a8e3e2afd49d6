import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { mediaAssets, mediaRenditions } from "~/db/schema";
import { renditionSrcSet } from "~/lib/image-renditions";
import { MAX_PHOTO_BYTES, photoAltSchema } from "~/media/photo-schema";
import { canDecodeHeic, MASTER_MAX_SIDE, readPhotosFromForm, storePhoto } from "~/media/photos.server";
import { drainRenditions } from "~/media/renditions.server";
import * as mediaRoute from "~/routes/media";
import { guardedRoute } from "../support/route-middleware";
import { createTestDatabase, testContext } from "../support/test-db";
import { flatJpeg, heicHeader, jpegWithGps, noisyJpeg, sidewaysJpeg } from "../support/photos";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";

// Admin routes as React Router calls them: their layouts' middleware checks the session (decision 110).
const photosRoute = guardedRoute("routes/admin/photos.ts");

const BASE = "http://localhost:3000";
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});
afterAll(() => handle?.close());

const countAssets = async () => (await handle.db.select({ hash: mediaAssets.hash }).from(mediaAssets)).length;

async function store(bytes: Uint8Array, name = "photo.jpg") {
  const result = await storePhoto(handle.db, bytes, name);
  if (!result.ok) throw new Error(result.error);
  return result.photo;
}

/** GET through the route's loader, as the browser would. */
async function fetchMedia(path: string, headers: Record<string, string> = {}): Promise<Response> {
  const file = path.replace(/^\/media\//, "");
  return (await mediaRoute.loader({
    request: new Request(`${BASE}${path}`, { headers }),
    params: { file },
    context: testContext(handle),
  } as never)) as Response;
}

describe("storePhoto refuses what is not a usable photo, and stores nothing", () => {
  it.each([
    [
      "a text file",
      new TextEncoder().encode("just some notes, not a picture"),
      "notes.jpg",
      /"notes\.jpg" is not a photo we can read\. Upload a JPEG, PNG, WebP or AVIF photo/,
    ],
    ["an empty file", new Uint8Array(0), "empty.png", /"empty\.png" is empty/],
    ["a truncated JPEG", new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0]), "cut.jpg", /cut\.jpg/],
  ])("%s", async (_name, bytes, fileName, message) => {
    const before = await countAssets();
    const result = await storePhoto(handle.db, bytes, fileName);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(message);
    expect(await countAssets()).toBe(before);
  });

  it("a GIF or an SVG is an image but not a photo format we take", async () => {
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } })
      .gif()
      .toBuffer();
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    expect(await storePhoto(handle.db, gif, "anim.gif")).toEqual({
      ok: false,
      error: '"anim.gif" is a GIF image. Upload a JPEG, PNG, WebP or AVIF photo.',
    });
    expect(await storePhoto(handle.db, svg, "logo.svg")).toEqual({
      ok: false,
      error: '"logo.svg" is a SVG image. Upload a JPEG, PNG, WebP or AVIF photo.',
    });
    expect(await countAssets()).toBe(0);
  });

  it("a file over 20 MB is refused before it is decoded", async () => {
    const big = new Uint8Array(MAX_PHOTO_BYTES + 1);
    big.set(await noisyJpeg(100, 100));
    const result = await storePhoto(handle.db, big, "huge.jpg");
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(/^"huge\.jpg" is larger than 20 MB\. Export a smaller copy/),
    });
    expect(await countAssets()).toBe(0);
  });

  it("an iPhone HEIC photo gets a message saying how to share it as JPEG (sharp's prebuilt libvips has no HEVC decoder)", async () => {
    expect(canDecodeHeic()).toBe(false);
    const result = await storePhoto(handle.db, heicHeader(), "IMG_0001.HEIC");
    expect(result).toEqual({
      ok: false,
      error: expect.stringContaining('"IMG_0001.HEIC" is a HEIC photo, which this server cannot read'),
    });
    expect(!result.ok && result.error).toContain("Most Compatible");
    expect(await countAssets()).toBe(0);
  });

  it("a file name is cleaned of folders and control characters", async () => {
    const result = await storePhoto(handle.db, new TextEncoder().encode("x"), "C:\\Users\\owner\\bad\u0007name.jpg");
    expect(!result.ok && result.error).toMatch(/^"badname\.jpg"/);
  });
});

describe("a stored photo", () => {
  it("carries no EXIF (no GPS position) in its master or any rendition", async () => {
    const original = await jpegWithGps();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const photo = await store(original, "garden.jpg");
    expect(photo).toMatchObject({
      src: expect.stringMatching(/^\/media\/[0-9a-f]{20}\.webp$/),
      width: 640,
      height: 480,
      name: "garden.jpg",
    });
    const master = await fetchMedia(photo.src);
    const masterMeta = await sharp(Buffer.from(await master.arrayBuffer())).metadata();
    expect(masterMeta.exif).toBeUndefined();
    expect(masterMeta.icc).toBeUndefined();
    expect(masterMeta.xmp).toBeUndefined();
    await drainRenditions(handle);
    for (const row of await handle.db
      .select()
      .from(mediaRenditions)
      .where(eq(mediaRenditions.hash, photo.src.slice(7, 27)))) {
      const meta = await sharp(row.bytes).metadata();
      expect(meta.exif, `${row.format} ${row.width}`).toBeUndefined();
      expect(Buffer.from(row.bytes).includes(Buffer.from("owner-home"))).toBe(false);
    }
  });

  it("is turned upright from its EXIF orientation", async () => {
    const photo = await store(await sidewaysJpeg(), "upright.jpg");
    expect(photo).toMatchObject({ width: 200, height: 300 });
    const bytes = Buffer.from(await (await fetchMedia(photo.src)).arrayBuffer());
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width: 200, height: 300 });
    expect((await sharp(bytes).metadata()).orientation).toBeUndefined();
    // Orientation 6 turns the stored image 90° clockwise: its dark left half becomes the top.
    const pixel = (x: number, y: number) => data[(y * info.width + x) * info.channels]!;
    expect(pixel(100, 20)).toBeLessThan(60);
    expect(pixel(100, 280)).toBeGreaterThan(200);
  });

  it("has a master at most 2400 px on its long side, and every rendition at its width, never upscaled", async () => {
    const big = await store(await flatJpeg(3000, 4000), "portrait.jpg");
    expect(big).toMatchObject({ width: 1800, height: MASTER_MAX_SIDE });
    const small = await store(await flatJpeg(600, 450), "small.jpg");
    await drainRenditions(handle);
    const rows = async (src: string) =>
      (
        await handle.db
          .select()
          .from(mediaRenditions)
          .where(eq(mediaRenditions.hash, src.slice(7, 27)))
      )
        .map((r) => `${r.format} ${r.width}x${r.height}`)
        .sort();
    expect(await rows(big.src)).toEqual([
      "avif 1200x1600",
      "avif 400x533",
      "avif 800x1067",
      "webp 1200x1600",
      "webp 400x533",
      "webp 800x1067",
    ]);
    expect(await rows(small.src)).toEqual(["avif 400x300", "avif 600x450", "webp 400x300", "webp 600x450"]);
    for (const [src, width] of [
      [big.src, 1200],
      [small.src, 600],
    ] as const) {
      for (const format of ["avif", "webp"] as const) {
        for (const entry of renditionSrcSet(src, format)!.split(", ")) {
          const [url, descriptor] = entry.split(" ");
          const response = await fetchMedia(url!);
          expect(response.status, url).toBe(200);
          const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
          expect(meta.format).toBe(format === "avif" ? "heif" : "webp");
          expect(meta.width, url).toBe(Math.min(Number.parseInt(descriptor!), width));
        }
      }
    }
    const [asset] = await handle.db
      .select()
      .from(mediaAssets)
      .where(eq(mediaAssets.hash, small.src.slice(7, 27)));
    expect(asset).toMatchObject({ status: "ready", error: null, width: 600, height: 450, originalName: "small.jpg" });
  });

  it("has the same URL when the same photo is uploaded again: one asset", async () => {
    const bytes = await noisyJpeg(500, 500);
    const first = await store(bytes, "a.jpg");
    const before = await countAssets();
    const second = await store(bytes, "b.jpg");
    expect(second.src).toBe(first.src);
    expect(await countAssets()).toBe(before);
  });
});

describe("GET /media/…", () => {
  it("serves a photo whose renditions are not made yet: the master, not cached, never a 404", async () => {
    const photo = await store(await flatJpeg(900, 600), "fresh.jpg");
    for (const path of [
      photo.src,
      photo.src.replace(".webp", ".400w.avif"),
      photo.src.replace(".webp", ".1200w.webp"),
    ]) {
      const response = await fetchMedia(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("content-type")).toBe("image/webp");
      expect(response.headers.get("etag")).toBeNull();
      expect((await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width).toBe(900);
    }
    await drainRenditions(handle);
    const ready = await fetchMedia(photo.src);
    expect(ready.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // The src is the largest WebP rendition.
    expect((await sharp(Buffer.from(await ready.arrayBuffer())).metadata()).width).toBe(900);
  });

  it("answers with immutable caching, a strong ETag, the right type, and 304 for a matching If-None-Match", async () => {
    const photo = await store(await flatJpeg(1300, 900), "cached.jpg");
    await drainRenditions(handle);
    const path = photo.src.replace(".webp", ".800w.avif");
    const first = await fetchMedia(path);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/avif");
    expect(first.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{20}-800w-avif"$/);
    expect(Number(first.headers.get("content-length"))).toBe((await first.arrayBuffer()).byteLength);
    const again = await fetchMedia(path, { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    const other = await fetchMedia(photo.src.replace(".webp", ".800w.webp"), { "If-None-Match": etag });
    expect(other.status).toBe(200);
    expect(other.headers.get("content-type")).toBe("image/webp");
  });

  it("answers 404 for an unknown hash, a malformed name, or a width that is not one of the renditions", async () => {
    const photo = await store(await noisyJpeg(700, 500), "w.jpg");
    await drainRenditions(handle);
    const hash = photo.src.slice(7, 27);
    for (const path of [
      "/media/0000000000aaaaaaaaaa.webp",
      "/media/0000000000aaaaaaaaaa.400w.avif",
      `/media/${hash}.avif`,
      `/media/${hash}.jpg`,
      `/media/${hash.toUpperCase()}.webp`,
      `/media/${hash}.0400w.webp`,
      `/media/${hash}.500w.webp`,
      `/media/${hash}.400w.png`,
      `/media/${hash}`,
      "/media/..%2Fsecrets",
    ]) {
      expect((await fetchMedia(path)).status, path).toBe(404);
    }
    // A standard width the photo is too small for gets its own width.
    const wide = await fetchMedia(`/media/${hash}.1200w.webp`);
    expect(wide.headers.get("etag")).toBe(`"${hash}-700w-webp"`);
  });
});

describe("POST /admin/photos", () => {
  const upload = async (form: FormData, headers: Record<string, string> = {}) => {
    const request = new Request(`${BASE}/admin/photos`, {
      method: "POST",
      body: form,
      headers: { Origin: BASE, ...headers },
    });
    const { status, body } = await routeAnswer(() =>
      photosRoute.action({ request, context: testContext(handle), params: {} } as never),
    );
    return { status, body };
  };
  let cookie: string;
  beforeAll(async () => {
    cookie = await signedInOwner(handle);
  });
  const withFile = (bytes: Uint8Array, name: string) => {
    const form = new FormData();
    form.set("file", new File([new Uint8Array(bytes)], name, { type: "image/jpeg" }));
    return form;
  };

  it("stores the signed-in owner's photo and answers 201 with its URL, size and name", async () => {
    const result = await upload(withFile(await flatJpeg(820, 640), "shoot.jpg"), { Cookie: cookie });
    expect(result).toEqual({
      status: 201,
      body: {
        photo: {
          src: expect.stringMatching(/^\/media\/[0-9a-f]{20}\.webp$/),
          width: 820,
          height: 640,
          name: "shoot.jpg",
        },
      },
    });
  });

  it("refuses an anonymous upload (401) and one from another site (403), storing nothing", async () => {
    const before = await countAssets();
    expect((await upload(withFile(await noisyJpeg(50, 50), "anon.jpg"))).status).toBe(401);
    expect(
      (await upload(withFile(await noisyJpeg(51, 51), "evil.jpg"), { Cookie: cookie, Origin: "https://evil.example" }))
        .status,
    ).toBe(403);
    expect(await countAssets()).toBe(before);
  });

  it("answers a clear message for no file, a non-image and an oversized file, storing nothing", async () => {
    const before = await countAssets();
    expect(await upload(new FormData(), { Cookie: cookie })).toEqual({
      status: 400,
      body: { error: "Choose a photo to upload." },
    });
    const text = await upload(withFile(new TextEncoder().encode("hello"), "notes.txt"), { Cookie: cookie });
    expect(text).toEqual({
      status: 422,
      body: { error: expect.stringMatching(/^"notes\.txt" is not a photo we can read/) },
    });
    const big = await upload(withFile(new Uint8Array(MAX_PHOTO_BYTES + 10), "big.jpg"), { Cookie: cookie });
    expect(big).toEqual({ status: 413, body: { error: expect.stringMatching(/larger than 20 MB/) } });
    const notMultipart = new Request(`${BASE}/admin/photos`, {
      method: "POST",
      body: "file=x",
      headers: { Origin: BASE, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    });
    const refused = (await photosRoute.action({
      request: notMultipart,
      context: testContext(handle),
      params: {},
    } as never)) as unknown as { init: ResponseInit };
    expect(refused.init.status).toBe(415);
    expect(await countAssets()).toBe(before);
  });
});

describe("readPhotosFromForm and the photo schema", () => {
  it("keeps the sent order and alt texts, then appends files picked without JavaScript; errors per file", async () => {
    const form = new FormData();
    form.append("photoSrc", "/images/products/candy-earrings-1.svg");
    form.append("photoAlt", "Candy earrings on a cream cloth");
    form.append("photoSrc", "/media/0123456789abcdef0123.webp");
    form.append("photoAlt", "");
    form.append(
      "photoFiles",
      new File([new Uint8Array(await noisyJpeg(420, 420))], "market.jpg", { type: "image/jpeg" }),
    );
    form.append("photoFiles", new File([new TextEncoder().encode("nope")], "notes.pdf", { type: "application/pdf" }));
    form.append("photoFiles", new File([], "", { type: "application/octet-stream" }));
    const { photos, errors } = await readPhotosFromForm(handle.db, form);
    expect(photos).toEqual([
      { src: "/images/products/candy-earrings-1.svg", alt: "Candy earrings on a cream cloth" },
      { src: "/media/0123456789abcdef0123.webp", alt: "" },
      { src: expect.stringMatching(/^\/media\/[0-9a-f]{20}\.webp$/), alt: "" },
    ]);
    expect(errors).toEqual([expect.stringMatching(/^"notes\.pdf" is not a photo we can read/)]);
  });

  it("requires an alt text and a shop image", () => {
    expect(photoAltSchema.safeParse({ src: "/media/0123456789abcdef0123.webp", alt: "  Honey in yellow  " })).toEqual({
      success: true,
      data: { src: "/media/0123456789abcdef0123.webp", alt: "Honey in yellow" },
    });
    expect(photoAltSchema.safeParse({ src: "/images/hero/hero.svg", alt: "Hero" }).success).toBe(true);
    const blank = photoAltSchema.safeParse({ src: "/images/hero/hero.svg", alt: "   " });
    expect(!blank.success && blank.error.issues.map((i) => i.message)).toEqual(["Alt text is required"]);
    expect(photoAltSchema.safeParse({ src: "/images/hero/hero.svg", alt: "x".repeat(201) }).success).toBe(false);
    for (const src of [
      "https://evil.example/a.jpg",
      "/media/xyz.webp",
      "/images/../admin",
      "/images/og/share.png",
      "javascript:alert(1)",
    ]) {
      expect(photoAltSchema.safeParse({ src, alt: "A" }).success, src).toBe(false);
    }
  });
});
