// Writes WebP renditions (400, 800 and 1200 px wide) beside every image under public/images/, as
// `name.<width>w.webp`; app/lib/image-renditions.ts builds the matching `srcset`. The Vite build runs
// it (vite.config.ts), and so does `node scripts/image-renditions.js`. A rendition newer than its
// source is kept, so only new or replaced images cost time.
import { mkdir, readdir, rename, stat, unlink } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const WIDTHS = [400, 800, 1200];
const SOURCE = /\.(svg|jpe?g|png|webp|avif)$/i;
const RENDITION = /\.\d+w\.webp$/i;

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

const mtime = (path) => stat(path).then((s) => s.mtimeMs, () => -1);

/** Renders one source at each width. SVGs are rasterised at the density that gives the target width, so they stay sharp. */
async function render(sharp, source, outputs) {
  const tmps = [];
  try {
    const meta = await sharp(source).metadata();
    const isVector = meta.format === "svg";
    for (const { width, path } of outputs) {
      const density = isVector && meta.width ? Math.min(2400, (72 * width) / meta.width) : undefined;
      // Several builds may share public/: write aside, then rename, so none reads half a file.
      const tmp = `${path}.${process.pid}.tmp`;
      tmps.push(tmp);
      await sharp(source, density ? { density } : {})
        .resize({ width })
        .webp({ quality: 78, effort: 5 })
        .toFile(tmp);
      await rename(tmp, path);
    }
  } catch (error) {
    await Promise.all(tmps.map((tmp) => unlink(tmp).catch(() => {})));
    throw new Error(`image renditions: cannot convert ${source}: ${error.message}`);
  }
}

export async function generateRenditions({ imagesDir, log = console.log } = {}) {
  const dir = imagesDir ?? fileURLToPath(new URL("../public/images", import.meta.url));
  const { default: sharp } = await import("sharp");
  let made = 0;
  let kept = 0;
  for await (const source of imageFiles(dir)) {
    const sourceTime = await mtime(source);
    const outputs = [];
    for (const width of WIDTHS) {
      const path = source.replace(SOURCE, `.${width}w.webp`);
      if ((await mtime(path)) >= sourceTime) kept++;
      else outputs.push({ width, path });
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
