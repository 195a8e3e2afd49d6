// `npm run fonts`: writes app/fonts/, the site's two variable faces split for the first screen
// (decision 068). Fontsource's Latin file of each family (about 37 KB: every Latin-1 and punctuation
// glyph, the whole weight axis) used to be preloaded on every page, yet almost all the copy is ASCII.
// So a "core" subset (ASCII, the punctuation the copy uses, weights 400–700, the only ones the site
// sets) is made from it and preloaded instead. The Latin file still serves every other character it
// covers, through a unicode-range that no longer overlaps the core's. Run it again after updating
// Fontsource (a unit test compares the committed files with what it makes).
// It also writes a metric-matched fallback face for each family and each system font the stacks in
// app/app.css name (decision 076): text set in the fallback takes the room the brand face will take,
// so a face that arrives after the first paint swaps in without moving the page.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createFontStack, type FontMetrics } from "@capsizecss/core";
import { entireMetricsCollection as metrics } from "@capsizecss/metrics/entireMetricsCollection";
import subsetFont from "subset-font";

const require = createRequire(import.meta.url);
const OUT_DIR = fileURLToPath(new URL("../app/fonts/", import.meta.url));

/** The code points of the core subset: printable ASCII, no-break space, ©, ·, dashes, quotes, •, …, ‹ ›. */
export const CORE_RANGES: [number, number][] = [
  [0x20, 0x7e],
  [0xa0, 0xa0],
  [0xa9, 0xa9],
  [0xb7, 0xb7],
  [0x2013, 0x2014],
  [0x2018, 0x201a],
  [0x201c, 0x201e],
  [0x2022, 0x2022],
  [0x2026, 0x2026],
  [0x2039, 0x203a],
];

const CORE_TEXT = String.fromCodePoint(
  ...CORE_RANGES.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i)),
);

/** The weights the site sets (font-normal, -medium, -semibold, -bold); the core keeps only that span of the axis. */
export const CORE_WEIGHTS = { min: 400, max: 700 };

export const FAMILIES = [
  { name: "fraunces", pkg: "@fontsource-variable/fraunces" },
  { name: "dm-sans", pkg: "@fontsource-variable/dm-sans" },
];

type FallbackMetrics = Pick<
  FontMetrics,
  "familyName" | "fullName" | "postscriptName" | "ascent" | "descent" | "lineGap" | "unitsPerEm" | "xWidthAvg"
>;

/**
 * Debian's DejaVu faces (package fonts-dejavu-core), what a Linux machine without other fonts draws
 * `serif` and `sans-serif` in: the lab's Chromium among them. Capsize's collection has no entry for
 * them; these figures are what `@capsizecss/unpack` reads from /usr/share/fonts/truetype/dejavu/.
 */
const DEJAVU_SERIF: FallbackMetrics = {
  familyName: "DejaVu Serif",
  fullName: "DejaVu Serif",
  postscriptName: "DejaVuSerif",
  ascent: 1901,
  descent: -483,
  lineGap: 0,
  unitsPerEm: 2048,
  xWidthAvg: 1058,
};
const DEJAVU_SANS: FallbackMetrics = {
  familyName: "DejaVu Sans",
  fullName: "DejaVu Sans",
  postscriptName: "DejaVuSans",
  ascent: 1901,
  descent: -483,
  lineGap: 0,
  unitsPerEm: 2048,
  xWidthAvg: 1041,
};

/**
 * Each brand family (its regular instance, the weight most of its copy is set in) and the system fonts
 * that stand in for it while it loads, in the order of app/app.css's stacks: Apple's and Windows'
 * first, then Android's, then Linux's.
 */
export const FALLBACK_STACKS = [
  {
    family: "Fraunces Variable",
    metrics: metrics.fraunces,
    systemFonts: [metrics.georgia, metrics.notoSerif, DEJAVU_SERIF],
  },
  {
    family: "DM Sans Variable",
    metrics: metrics.dMSans,
    systemFonts: [metrics.helveticaNeue, metrics.arial, metrics.roboto, DEJAVU_SANS],
  },
];

/** The fallback faces' family names for a brand family, in stack order: "Fraunces Fallback: Georgia", … */
export function fallbackFamilies(family: string): string[] {
  const stack = FALLBACK_STACKS.find((s) => s.family === family);
  if (!stack) throw new Error(`no fallback stack for ${family}`);
  return stack.systemFonts.map((font) => `${stack.metrics.familyName} Fallback: ${font.familyName}`);
}

/** The @font-face rules that give each system font the brand face's size and vertical metrics. */
function fallbackFaceRules(): string {
  return FALLBACK_STACKS.map(({ family, metrics: brand, systemFonts }) => {
    const { fontFaces } = createFontStack([brand, ...systemFonts], { fontFaceFormat: "styleString" });
    return `/* ${family}: metric-matched fallbacks (Capsize), decision 076 */\n${fontFaces}`;
  }).join("\n\n");
}

type Range = [number, number];

export function parseUnicodeRange(value: string): Range[] {
  return value.split(",").map((part) => {
    const [from, to] = part.trim().replace(/^U\+/i, "").split("-");
    return [parseInt(from, 16), parseInt(to ?? from, 16)];
  });
}

export function formatUnicodeRange(ranges: Range[]): string {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, "0");
  return ranges.map(([a, b]) => (a === b ? `U+${hex(a)}` : `U+${hex(a)}-${hex(b)}`)).join(",");
}

/** `ranges` without the code points in `remove`, in order, adjacent ranges merged. */
export function subtractRanges(ranges: Range[], remove: Range[]): Range[] {
  const out: Range[] = [];
  for (const [start, end] of [...ranges].sort((x, y) => x[0] - y[0])) {
    let pieces: Range[] = [[start, end]];
    for (const [ra, rb] of remove) {
      pieces = pieces.flatMap(([a, b]): Range[] => {
        if (rb < a || ra > b) return [[a, b]];
        const left: Range[] = a < ra ? [[a, ra - 1]] : [];
        const right: Range[] = b > rb ? [[rb + 1, b]] : [];
        return [...left, ...right];
      });
    }
    for (const piece of pieces) {
      const last = out[out.length - 1];
      if (last && piece[0] <= last[1] + 1) last[1] = Math.max(last[1], piece[1]);
      else out.push([...piece]);
    }
  }
  return out;
}

interface FaceRule {
  comment: string;
  body: string;
  file: string;
  unicodeRange: string;
}

/** The @font-face rules of a Fontsource package's wght.css, in order. */
function faceRules(pkg: string): { dir: string; rules: FaceRule[] } {
  const cssPath = require.resolve(`${pkg}/wght.css`);
  const css = fs.readFileSync(cssPath, "utf8");
  const rules = [...css.matchAll(/\/\* ([^*]+) \*\/\s*@font-face \{([^}]*)\}/g)].map(([, comment, body]) => ({
    comment: comment.trim(),
    body,
    file: /url\(\.\/files\/([^)]+)\)/.exec(body)![1],
    unicodeRange: /unicode-range: ([^;]+);/.exec(body)![1],
  }));
  return { dir: path.dirname(cssPath), rules };
}

export interface BuiltFonts {
  files: Record<string, Buffer>;
  css: string;
}

export async function buildFonts(): Promise<BuiltFonts> {
  const files: Record<string, Buffer> = {};
  const blocks: string[] = [];
  for (const { name, pkg } of FAMILIES) {
    const { dir, rules } = faceRules(pkg);
    const latin = rules.find((rule) => rule.comment === `${name}-latin-wght-normal`);
    if (!latin) throw new Error(`${pkg}/wght.css has no ${name}-latin-wght-normal face`);
    const coreFile = `${name}-core-wght-normal.woff2`;
    files[coreFile] = await subsetFont(fs.readFileSync(path.join(dir, "files", latin.file)), CORE_TEXT, {
      targetFormat: "woff2",
      variationAxes: { wght: CORE_WEIGHTS },
    });
    for (const rule of rules) {
      let body = rule.body.replace(/url\(\.\/files\/([^)]+)\)/, `url(${pkg}/files/$1)`);
      if (rule === latin) {
        const rest = formatUnicodeRange(subtractRanges(parseUnicodeRange(rule.unicodeRange), CORE_RANGES));
        body = body.replace(rule.unicodeRange, rest);
      }
      blocks.push(`/* ${rule.comment} */\n@font-face {${body}}`);
    }
    // Same descriptors as the Latin face, so the browser treats them as one font split by unicode-range.
    const coreBody = latin.body
      .replace(/url\(\.\/files\/[^)]+\)/, `url(./${coreFile})`)
      .replace(latin.unicodeRange, formatUnicodeRange(CORE_RANGES));
    blocks.push(`/* ${name}-core-wght-normal: made by scripts/subset-fonts.ts */\n@font-face {${coreBody}}`);
  }
  blocks.push(fallbackFaceRules());
  const css = `/* Generated by scripts/subset-fonts.ts (npm run fonts); do not edit. Decisions 068 and 076. */\n\n${blocks.join("\n\n")}\n`;
  return { files, css };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { files, css } = await buildFonts();
  fs.mkdirSync(OUT_DIR, { recursive: true });
  for (const [file, bytes] of Object.entries(files)) {
    fs.writeFileSync(path.join(OUT_DIR, file), bytes);
    console.log(`${file}: ${(bytes.length / 1024).toFixed(1)} KB`);
  }
  fs.writeFileSync(path.join(OUT_DIR, "fonts.css"), css);
  console.log(`fonts.css written to ${path.relative(process.cwd(), OUT_DIR)}`);
}
