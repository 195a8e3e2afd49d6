// The admin's home-screen icons, drawn from the favicon's hexagon in the brand colours (BRAND.md):
// `node scripts/generate-admin-icons.js` rewrites public/admin-icons/. Run it again if the logo changes.
import { Buffer } from "node:buffer";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

const OUT = path.resolve("public/admin-icons");
const HONEY = "#F2B705";
const INK = "#1F1A17";
const CREAM = "#FFF8E7";

/** The favicon's two hexagons, scaled to `size` and centred on a square of `background`. */
function icon(size, background, logoShare) {
  const logo = size * logoShare;
  const offset = (size - logo) / 2;
  const scale = logo / 32;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <rect width="${size}" height="${size}" fill="${background}"/>
  <g transform="translate(${offset} ${offset}) scale(${scale})">
    <path d="M16 2 28 9v14l-12 7-12-7V9z" fill="${HONEY}" stroke="${INK}" stroke-width="2"/>
    <path d="M16 10l5 3v6l-5 3-5-3v-6z" fill="${INK}"/>
  </g>
</svg>`);
}

fs.mkdirSync(OUT, { recursive: true });
const icons = [
  ["icon-192.png", 192, CREAM, 0.78],
  ["icon-512.png", 512, CREAM, 0.78],
  // A maskable icon is cropped to a circle or squircle: the logo stays inside the middle 80 % (the safe zone).
  ["icon-maskable-512.png", 512, CREAM, 0.56],
  ["apple-touch-icon.png", 180, CREAM, 0.72],
];
for (const [name, size, background, share] of icons) {
  await sharp(icon(size, background, share))
    .png({ compressionLevel: 9 })
    .toFile(path.join(OUT, name));
  console.log(`public/admin-icons/${name}`);
}
