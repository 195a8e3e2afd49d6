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
  if (/^\/images\/(products|solutions|services)\//.test(path)) return "portrait";
  return "wide";
}

function titleFor(path) {
  const base = path
    .split("/")
    .pop()
    .replace(/\.svg$/, "");
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

/** A stylised Honey: headwrap, head, beaded necklace and an A-line dress, standing in an arch. */
function honey(cx, top, height, colours) {
  const u = height / 100;
  const head = `<circle cx="${cx}" cy="${top + 17 * u}" r="${7 * u}" fill="${colours.skin}"/>`;
  const wrap =
    `<path d="M${cx - 8 * u} ${top + 15 * u} Q ${cx - 9 * u} ${top + 2 * u} ${cx} ${top + 1 * u} ` +
    `Q ${cx + 10 * u} ${top + 2 * u} ${cx + 8 * u} ${top + 15 * u} ` +
    `Q ${cx} ${top + 10 * u} ${cx - 8 * u} ${top + 15 * u} Z" fill="${colours.wrap}"/>`;
  const neck = `<rect x="${cx - 2.2 * u}" y="${top + 22 * u}" width="${4.4 * u}" height="${6 * u}" fill="${colours.skin}"/>`;
  const dress =
    `<path d="M${cx - 10 * u} ${top + 30 * u} Q ${cx} ${top + 26 * u} ${cx + 10 * u} ${top + 30 * u} ` +
    `L ${cx + 7 * u} ${top + 50 * u} L ${cx + 21 * u} ${top + 96 * u} ` +
    `Q ${cx} ${top + 100 * u} ${cx - 21 * u} ${top + 96 * u} L ${cx - 7 * u} ${top + 50 * u} Z" fill="${colours.dress}"/>`;
  const band =
    `<path d="M${cx - 7.6 * u} ${top + 48 * u} L ${cx + 7.6 * u} ${top + 48 * u} ` +
    `L ${cx + 8.4 * u} ${top + 53 * u} L ${cx - 8.4 * u} ${top + 53 * u} Z" fill="${colours.wrap}"/>`;
  const beads = Array.from({ length: 7 }, (_, i) => {
    const t = (i - 3) / 3;
    return (
      `<circle cx="${(cx + t * 6 * u).toFixed(1)}" cy="${(top + 29 * u + (1 - t * t) * 3 * u).toFixed(1)}" ` +
      `r="${1.1 * u}" fill="${colours.beads}"/>`
    );
  }).join("");
  return wrap + head + neck + dress + band + beads;
}

function arch(x, y, w, h, fill, opacity = 1) {
  const r = w / 2;
  return `<path d="M${x} ${y + h} V ${y + r} A ${r} ${r} 0 0 1 ${x + w} ${y + r} V ${y + h} Z" fill="${fill}" opacity="${opacity}"/>`;
}

// Looks for the Honeys: skin, headwrap, dress, beads (always brand colours, varied per slot).
const LOOKS = [
  { skin: "#6B4226", wrap: "#A3431F", dress: "#1F1A17", beads: "#F2B705" },
  { skin: "#8A5A3B", wrap: "#F2B705", dress: "#A3431F", beads: "#FFF8E7" },
  { skin: "#4E3020", wrap: "#2F5D3A", dress: "#F2B705", beads: "#1F1A17" },
  { skin: "#7A4B2E", wrap: "#1F1A17", dress: "#2F5D3A", beads: "#F2B705" },
];

/** A small stable number per file name, so neighbouring slots get different looks. */
function hash(text) {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h;
}

function svgFor(path, index) {
  const shape = shapeFor(path);
  const [w, h] = SIZES[shape];
  // The hero is the first thing a visitor sees: always the honey palette so it stands out from the cream page.
  const p = path.startsWith("/images/hero/") ? PALETTES[3] : PALETTES[index % PALETTES.length];
  const { label, number } = titleFor(path);
  const archFill = p.bg === "#F2B705" ? "#FFF8E7" : "#F2B705";
  // One Honey in tall slots, three side by side in wide ones (a community, an event, a collection).
  const count = shape === "portrait" || shape === "square" ? 1 : 3;
  const slotW = w / count;
  let art = "";
  for (let i = 0; i < count; i++) {
    const aw = Math.min(slotW * 0.72, h * 0.62);
    const ax = slotW * i + (slotW - aw) / 2;
    const ah = h * 0.8;
    const ay = h * 0.12;
    const base = LOOKS[(hash(path) + i) % LOOKS.length];
    // Never a dress the colour of the arch behind it.
    let look = base.dress === archFill ? { ...base, dress: "#1F1A17", beads: "#F2B705" } : base;
    if (look.wrap === archFill) look = { ...look, wrap: "#A3431F" };
    art += arch(ax, ay, aw, ah, i === 1 ? "#A3431F" : archFill, i === 1 ? 0.85 : 0.9);
    const figH = ah * 0.86;
    art += honey(ax + aw / 2, ay + ah - figH, figH, i === 1 ? { ...look, dress: "#1F1A17", beads: "#F2B705" } : look);
  }
  const r = Math.round(Math.min(w, h) * 0.045);
  const dx = r * Math.sqrt(3);
  const cx = w - r * 2.6;
  const cy = r * 2.2;
  const combColour = p.bg === "#F2B705" ? "#1F1A17" : "#A3431F";
  // A small honeycomb cluster in one corner: the motif, used sparingly.
  const comb = [
    [cx, cy],
    [cx - dx, cy],
    [cx - dx / 2, cy + r * 1.5],
  ]
    .map(
      ([x, y], i) =>
        `<polygon points="${hexagon(x, y, r * 0.92)}" fill="${i === 0 ? combColour : "none"}" stroke="${combColour}" ` +
        `stroke-width="2.5" opacity="0.7"/>`,
    )
    .join("");
  const caption = `${label}${number ? ` · ${number}` : ""}`.toUpperCase();
  const fs = Math.round(Math.max(14, Math.min(w, h) * 0.026));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" ` +
    `aria-label="${esc(label)}" data-${MARKER}="1">
<rect width="${w}" height="${h}" fill="${p.bg}"/>
<path d="M0 ${h * 0.86} Q ${w * 0.5} ${h * 0.8} ${w} ${h * 0.88} V ${h} H 0 Z" fill="${p.band}" opacity="0.22"/>
<g>${art}</g>
<g>${comb}</g>
<text x="${fs * 1.6}" y="${h - fs * 1.4}" font-family="DM Sans, Arial, sans-serif" font-size="${fs}" ` +
    `font-weight="600" letter-spacing="2" fill="#1F1A17" opacity="0.7">${esc(caption)}</text>
</svg>
`
  );
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
