import { mkdtemp, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain-JS build script without type declarations
import { WIDTHS, generateRenditions } from "../../scripts/image-renditions.js";
import { RENDITION_WIDTHS, hasRenditions, renditionUrl, responsiveImage } from "./image-renditions";

describe("responsiveImage", () => {
  it("offers every WebP rendition with its width and keeps the original as src", () => {
    expect(responsiveImage("/images/products/candy-earrings-1.svg", "50vw")).toEqual({
      src: "/images/products/candy-earrings-1.svg",
      srcSet:
        "/images/products/candy-earrings-1.400w.webp 400w, /images/products/candy-earrings-1.800w.webp 800w, /images/products/candy-earrings-1.1200w.webp 1200w",
      sizes: "50vw",
    });
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
      expect(responsiveImage(src, "100vw")).toEqual({ src });
    }
  });

  it("names a photo's renditions after its base name, whatever its format", () => {
    expect(renditionUrl("/images/events/sip-style-1.JPG", 400)).toBe("/images/events/sip-style-1.400w.webp");
  });

  it("matches the widths the build writes", () => {
    expect([...RENDITION_WIDTHS]).toEqual(WIDTHS);
  });
});

describe("generateRenditions", () => {
  let dir: string;
  const quiet = () => {};
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "renditions-"));
    await writeFile(
      join(dir, "art.svg"),
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 1000" width="800" height="1000"><rect width="800" height="1000" fill="#F2B705"/></svg>',
    );
    await sharp({ create: { width: 1600, height: 1067, channels: 3, background: "#A3431F" } }).jpeg().toFile(join(dir, "photo.jpg"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("writes each width as WebP, vector art rasterised sharp at the target width with its aspect ratio", async () => {
    expect(await generateRenditions({ imagesDir: dir, log: quiet })).toEqual({ made: 6, kept: 0 });
    for (const width of WIDTHS) {
      const art = await sharp(join(dir, `art.${width}w.webp`)).metadata();
      expect(art).toMatchObject({ format: "webp", width, height: (width * 1000) / 800 });
      const photo = await sharp(join(dir, `photo.${width}w.webp`)).metadata();
      expect(photo).toMatchObject({ format: "webp", width });
    }
  });

  it("keeps renditions newer than their source and redoes those of a replaced image", async () => {
    expect(await generateRenditions({ imagesDir: dir, log: quiet })).toEqual({ made: 0, kept: 6 });
    const later = new Date(Date.now() + 60_000);
    await utimes(join(dir, "photo.jpg"), later, later);
    expect(await generateRenditions({ imagesDir: dir, log: quiet })).toEqual({ made: 3, kept: 3 });
    expect((await stat(join(dir, "photo.400w.webp"))).mtimeMs).toBeGreaterThan(0);
  });

  it("names the file it cannot convert and leaves no partial output", async () => {
    await writeFile(join(dir, "broken.png"), "not a png");
    await expect(generateRenditions({ imagesDir: dir, log: quiet })).rejects.toThrow(/broken\.png/);
    await expect(stat(join(dir, "broken.400w.webp"))).rejects.toThrow();
  });
});
