// Writes AVIF and WebP renditions (400, 800 and 1200 px wide) beside every image under public/images/,
// as `name.<width>w.avif` and `name.<width>w.webp`; app/lib/image-renditions.ts builds the matching
// `srcset`s. The Vite build runs it (vite.config.ts), and so does `node scripts/image-renditions.js`.
// A rendition newer than its source is kept, so only new or replaced images cost time.
import { mkdir, readdir, rename, stat, unlink } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const WIDTHS = [400, 800, 1200];
// AVIF is about half the size of WebP for the same look; WebP is for browsers without AVIF. The
// efforts trade a few per cent of size for a build several times faster.
export const FORMATS = {
  avif: (image) => image.avif({ quality: 50, effort: 2 }),
  webp: (image) => image.webp({ quality: 75, effort: 4 }),
};
const SOURCE = /\.(svg|jpe?g|png|webp|avif)$/i;
const RENDITION = /\.\d+w\.(avif|webp)$/i;

async function* imageFiles(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "og") yield* imageFiles(path);
    } else if (SOURCE.test(entry.name) && !RENDITION.test(entry.name)) {
      yield path;
    }
  }
}

const mtime = (path) =>
  stat(path).then(
    (s) => s.mtimeMs,
    () => -1,
  );

/** Renders one source at each width. SVGs are rasterised at the density that gives the target width, so they stay sharp. */
async function render(sharp, source, outputs) {
  const tmps = [];
  try {
    const meta = await sharp(source).metadata();
    const isVector = meta.format === "svg";
    for (const { width, format, path } of outputs) {
      const density = isVector && meta.width ? Math.min(2400, (72 * width) / meta.width) : undefined;
      // Several builds may share public/: write aside, then rename, so none reads half a file.
      const tmp = `${path}.${process.pid}.tmp`;
      tmps.push(tmp);
      await FORMATS[format](sharp(source, density ? { density } : {}).resize({ width })).toFile(tmp);
      await rename(tmp, path);
    }
  } catch (error) {
    await Promise.all(tmps.map((tmp) => unlink(tmp).catch(() => {})));
    throw new Error(`image renditions: cannot convert ${source}: ${error.message}`);
  }
}

/** @param {{ imagesDir?: string; log?: (message: string) => void }} [options] */
export async function generateRenditions({ imagesDir, log = console.log } = {}) {
  const dir = imagesDir ?? fileURLToPath(new URL("../public/images", import.meta.url));
  const { default: sharp } = await import("sharp");
  let made = 0;
  let kept = 0;
  for await (const source of imageFiles(dir)) {
    const sourceTime = await mtime(source);
    const outputs = [];
    for (const width of WIDTHS) {
      for (const format of Object.keys(FORMATS)) {
        const path = source.replace(SOURCE, `.${width}w.${format}`);
        if ((await mtime(path)) >= sourceTime) kept++;
        else outputs.push({ width, format, path });
      }
    }
    if (outputs.length) {
      await mkdir(join(source, ".."), { recursive: true });
      await render(sharp, source, outputs);
      made += outputs.length;
    }
  }
  log(`image renditions: ${made} written, ${kept} up to date (${relative(process.cwd(), dir) || dir})`);
  return { made, kept };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await generateRenditions();
}
