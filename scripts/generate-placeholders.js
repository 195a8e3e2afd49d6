#!/usr/bin/env node
// Writes small SVG placeholders in the brand colours for every image slot the site uses.
// Plain Node, no dependencies: `node scripts/generate-placeholders.js`.
// Existing files are overwritten ONLY when they are generated placeholders (they carry the
// marker below), so a real photo the owner dropped in under the same name is never replaced.
import { readFileSync, writeFileSync, mkdirSync, existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "public");
const MARKER = "honeybee-placeholder";

const SIZES = {
  portrait: [800, 1000], // 4:5 products, services, models
  square: [800, 800], // gallery
  wide: [1200, 800], // 3:2 about, events, blog
  hero: [1280, 800], // 16:10
  video: [1280, 720], // 16:9 video poster
};

// Palettes rotate so neighbouring cards do not look identical.
const PALETTES = [
  { bg: "#FFF8E7", band: "#F2B705", ink: "#1F1A17" },
  { bg: "#F7E6C4", band: "#A3431F", ink: "#1F1A17" },
  { bg: "#FBEFD0", band: "#F2B705", ink: "#1F1A17" },
  { bg: "#F2B705", band: "#FFF8E7", ink: "#1F1A17" },
];

/** Collects every /images/... path referenced by the seed content and site config. */
function contentImagePaths() {
  const dir = join(root, "app", "content");
  const paths = new Set();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
    const src = readFileSync(join(dir, file), "utf8");
    for (const m of src.matchAll(/["'`](\/images\/[A-Za-z0-9_./-]+\.svg)["'`]/g)) paths.add(m[1]);
    // catalog.ts builds gallery paths with img("folder", "slug", count)
    for (const m of src.matchAll(/img\(\s*"([\w-]+)"\s*,\s*"([\w-]+)"\s*,\s*(\d+)\s*\)/g)) {
      for (let i = 1; i <= Number(m[3]); i++) paths.add(`/images/${m[1]}/${m[2]}-${i}.svg`);
    }
  }
  return [...paths];
}

const EXTRA = [
  "/images/hero/hero.svg",
  "/images/about/model.svg",
  "/images/about/collection-showcase.svg",
  "/images/about/brand-story.svg",
  "/images/home/styled-collections.svg",
  "/images/home/consultation-services.svg",
  ...Array.from({ length: 12 }, (_, i) => `/images/gallery/workshop-${String(i + 1).padStart(2, "0")}.svg`),
];

function shapeFor(path) {
  if (path.startsWith("/images/hero/")) return "hero";
  if (path.includes("video-poster")) return "video";
  if (path.startsWith("/images/gallery/")) return "square";
  if (path === "/images/about/model.svg") return "portrait";
  if (/^\/images\/(products|solutions|services|home)\//.test(path)) return "portrait";
  return "wide";
}

function titleFor(path) {
  const base = path.split("/").pop().replace(/\.svg$/, "");
  const m = base.match(/^(.*?)-(\d+)$/);
  const words = (m ? m[1] : base).split("-").map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  const label = words.join(" ");
  return { label, number: m ? Number(m[2]) : null };
}

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function hexagon(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i + Math.PI / 6;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

function svgFor(path, index) {
  const [w, h] = SIZES[shapeFor(path)];
  // The hero is the first thing a visitor sees: always the honey palette so it stands out from the cream page.
  const p = path.startsWith("/images/hero/") ? PALETTES[3] : PALETTES[index % PALETTES.length];
  const { label, number } = titleFor(path);
  const r = Math.round(Math.min(w, h) * 0.06);
  const dx = r * Math.sqrt(3);
  // A small honeycomb cluster in one corner: the motif, used sparingly.
  const cx = w - r * 3;
  const cy = r * 2.4;
  const combColour = p.bg === "#F2B705" ? "#1F1A17" : "#F2B705";
  const comb = [
    [cx, cy],
    [cx - dx, cy],
    [cx - dx / 2, cy + r * 1.5],
    [cx + dx / 2, cy + r * 1.5],
  ]
    .map(([x, y], i) => `<polygon points="${hexagon(x, y, r * 0.92)}" fill="${i === 0 ? combColour : "none"}" stroke="${combColour}" stroke-width="3" opacity="0.8"/>`)
    .join("");
  const fontSize = Math.round(Math.min((w / Math.max(label.length, 8)) * 1.5, h * 0.085, 72));
  const sub = number ? `Photo ${number}` : "Honey Bee Sustainable Fashion";
  const textFill = p.bg === "#F2B705" ? "#1F1A17" : p.ink;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${esc(label)}" data-${MARKER}="1">
<rect width="${w}" height="${h}" fill="${p.bg}"/>
<path d="M0 ${h * 0.78} Q ${w * 0.5} ${h * 0.66} ${w} ${h * 0.8} V ${h} H 0 Z" fill="${p.band}" opacity="0.18"/>
<g>${comb}</g>
<text x="${w / 2}" y="${h * 0.5}" text-anchor="middle" font-family="Fraunces, Georgia, serif" font-size="${fontSize}" fill="${textFill}">${esc(label)}</text>
<line x1="${w / 2 - 40}" y1="${h * 0.5 + fontSize * 0.6}" x2="${w / 2 + 40}" y2="${h * 0.5 + fontSize * 0.6}" stroke="#A3431F" stroke-width="3"/>
<text x="${w / 2}" y="${h * 0.5 + fontSize * 1.5}" text-anchor="middle" font-family="DM Sans, Arial, sans-serif" font-size="${Math.round(fontSize * 0.42)}" letter-spacing="3" fill="${textFill}" opacity="0.75">${esc(sub.toUpperCase())}</text>
</svg>
`;
}

const all = [...new Set([...contentImagePaths(), ...EXTRA])].sort();
let written = 0;
let kept = 0;
all.forEach((path, i) => {
  const file = join(outDir, path);
  if (existsSync(file) && !readFileSync(file, "utf8").includes(MARKER)) {
    kept++; // the owner's real image: leave it alone
    return;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, svgFor(path, i));
  written++;
});
console.log(`placeholders: ${written} written, ${kept} owner images kept, ${all.length} slots`);
