import { mkdtemp, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMATS, WIDTHS, generateRenditions } from "../../scripts/image-renditions.js";
import { RENDITION_WIDTHS, hasRenditions, renditionSrcSet, renditionUrl, renditionWidthsFor } from "./image-renditions";

describe("renditionSrcSet", () => {
  it("lists each width of one format, named after the original", () => {
    expect(renditionSrcSet("/images/products/candy-earrings-1.svg", "avif")).toBe(
      "/images/products/candy-earrings-1.400w.avif 400w, /images/products/candy-earrings-1.800w.avif 800w, " +
        "/images/products/candy-earrings-1.1200w.avif 1200w",
    );
    expect(renditionSrcSet("/images/hero/hero.svg", "webp")).toMatch(/^\/images\/hero\/hero\.400w\.webp 400w, /);
  });

  it("leaves images without renditions alone: other hosts, the share card, renditions themselves, odd paths", () => {
    for (const src of [
      "https://cdn.example.com/a.jpg",
      "/images/og/share.png",
      "/images/hero/hero.800w.webp",
      "/images/../secret.png",
      "/favicon.svg",
      "/images/readme.txt",
    ]) {
      expect(hasRenditions(src)).toBe(false);
      expect(renditionSrcSet(src, "avif")).toBeUndefined();
    }
  });

  it("names a photo's renditions after its base name, whatever its format", () => {
    expect(renditionUrl("/images/events/sip-style-1.JPG", 400, "webp")).toBe("/images/events/sip-style-1.400w.webp");
  });

  it("serves an uploaded photo's renditions from /media, named after its content hash", () => {
    const src = "/media/0123456789abcdef0123.webp";
    expect(hasRenditions(src)).toBe(true);
    expect(renditionSrcSet(src, "avif")).toBe(
      "/media/0123456789abcdef0123.400w.avif 400w, /media/0123456789abcdef0123.800w.avif 800w, " +
        "/media/0123456789abcdef0123.1200w.avif 1200w",
    );
    expect(renditionSrcSet(src, "webp")).toMatch(/^\/media\/0123456789abcdef0123\.400w\.webp 400w, /);
    for (const odd of [
      "/media/0123456789abcdef0123.avif",
      "/media/0123456789ABCDEF0123.webp",
      "/media/0123456789abcdef012.webp",
      "/media/0123456789abcdef0123.400w.webp",
      "/media/../0123456789abcdef0123.webp",
      "/media/0123456789abcdef0123.webp?x=1",
    ]) {
      expect(hasRenditions(odd), odd).toBe(false);
    }
  });

  it("lists only the widths a small photo has when its width is known, never upscaled", () => {
    expect(renditionWidthsFor(600)).toEqual([400, 600]);
    expect(renditionWidthsFor(400)).toEqual([400]);
    expect(renditionWidthsFor(300)).toEqual([300]);
    expect(renditionWidthsFor(800)).toEqual([400, 800]);
    expect(renditionWidthsFor(1000)).toEqual([400, 800, 1000]);
    expect(renditionWidthsFor(1200)).toEqual([400, 800, 1200]);
    expect(renditionWidthsFor(2400)).toEqual([400, 800, 1200]);
    expect(renditionSrcSet("/media/0123456789abcdef0123.webp", "avif", 600)).toBe(
      "/media/0123456789abcdef0123.400w.avif 400w, /media/0123456789abcdef0123.600w.avif 600w",
    );
    expect(renditionSrcSet("/media/0123456789abcdef0123.webp", "webp", 3000)).toMatch(/ 1200w$/);
  });

  it("matches the widths and formats the build writes", () => {
    expect([...RENDITION_WIDTHS]).toEqual(WIDTHS);
    expect(Object.keys(FORMATS).sort()).toEqual(["avif", "webp"]);
  });
});

describe("generateRenditions", () => {
  let dir: string;
  const quiet = () => {};
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "renditions-"));
    await writeFile(
      join(dir, "art.svg"),
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 1000" width="800" height="1000"><rect width="800" ' +
        'height="1000" fill="#F2B705"/></svg>',
    );
    await sharp({ create: { width: 1600, height: 1067, channels: 3, background: "#A3431F" } })
      .jpeg()
      .toFile(join(dir, "photo.jpg"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("writes each width as AVIF and WebP, vector art rasterised sharp at the target width with its aspect ratio", async () => {
    expect(await generateRenditions({ imagesDir: dir, log: quiet })).toEqual({ made: 12, kept: 0 });
    for (const width of WIDTHS) {
      for (const format of ["avif", "webp"]) {
        const art = await sharp(join(dir, `art.${width}w.${format}`)).metadata();
        // sharp reports AVIF as its container, HEIF.
        expect(art).toMatchObject({ format: format === "avif" ? "heif" : "webp", width, height: (width * 1000) / 800 });
        const photo = await sharp(join(dir, `photo.${width}w.${format}`)).metadata();
        expect(photo).toMatchObject({ width, height: Math.round((width * 1067) / 1600) });
      }
    }
  });

  it("keeps renditions newer than their source and redoes those of a replaced image", async () => {
    expect(await generateRenditions({ imagesDir: dir, log: quiet })).toEqual({ made: 0, kept: 12 });
    const before = (await stat(join(dir, "photo.400w.avif"))).mtimeMs;
    const later = new Date(Date.now() + 60_000);
    await utimes(join(dir, "photo.jpg"), later, later);
    expect(await generateRenditions({ imagesDir: dir, log: quiet })).toEqual({ made: 6, kept: 6 });
    expect((await stat(join(dir, "photo.400w.avif"))).mtimeMs).toBeGreaterThan(before);
  });

  it("names the file it cannot convert and leaves no partial output", async () => {
    await writeFile(join(dir, "broken.png"), "not a png");
    await expect(generateRenditions({ imagesDir: dir, log: quiet })).rejects.toThrow(/broken\.png/);
    await expect(stat(join(dir, "broken.400w.webp"))).rejects.toThrow();
  });
});
