import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildFonts,
  CORE_RANGES,
  FALLBACK_STACKS,
  fallbackFamilies,
  formatUnicodeRange,
  parseUnicodeRange,
  subtractRanges,
} from "./subset-fonts";

const covers = (ranges: [number, number][], cp: number) => ranges.some(([a, b]) => cp >= a && cp <= b);

describe("font subsets", () => {
  it("the committed app/fonts/ is exactly what the script makes from the installed Fontsource packages", async () => {
    const { files, css } = await buildFonts();
    const dir = path.join(import.meta.dirname, "..", "app", "fonts");
    expect(fs.readFileSync(path.join(dir, "fonts.css"), "utf8")).toBe(css);
    for (const [file, bytes] of Object.entries(files)) {
      expect(Buffer.compare(fs.readFileSync(path.join(dir, file)), bytes), `${file}: run npm run fonts`).toBe(0);
      // The point of the subset: well under Fontsource's ~37 KB Latin file.
      expect(bytes.length).toBeLessThan(24 * 1024);
    }
  }, 60_000);

  it("app/app.css names each brand face, then every fallback face made for it, in the script's order", () => {
    const css = fs.readFileSync(path.join(import.meta.dirname, "..", "app", "app.css"), "utf8");
    const stacks = [...css.matchAll(/--font-(?:display|sans): ([^;]+);/g)].map(([, value]) =>
      value.split(",").map((name) => name.trim().replace(/^"|"$/g, "")),
    );
    expect(stacks).toHaveLength(FALLBACK_STACKS.length);
    for (const { family } of FALLBACK_STACKS) {
      const stack = stacks.find((names) => names[0] === family);
      expect(stack, `a stack starting with ${family}`).toBeDefined();
      expect(stack!.slice(1, 1 + fallbackFamilies(family).length)).toEqual(fallbackFamilies(family));
    }
  });

  it("sizes each fallback face to its brand face: DejaVu Sans, wider than DM Sans, is drawn smaller", () => {
    // The committed file, which the first test holds to what the script makes.
    const css = fs.readFileSync(path.join(import.meta.dirname, "..", "app", "fonts", "fonts.css"), "utf8");
    const face = (family: string) => new RegExp(`font-family: "${family}";[^}]*size-adjust: ([\\d.]+)%`).exec(css)?.[1];
    expect(Number(face("DM Sans Fallback: DejaVu Sans"))).toBeLessThan(100);
    expect(Number(face("Fraunces Fallback: Georgia"))).toBeGreaterThan(100);
    for (const family of FALLBACK_STACKS.flatMap((s) => fallbackFamilies(s.family)))
      expect(face(family), family).toBeDefined();
  });

  it("splits the Latin range in two without losing or sharing a code point", () => {
    const latin = parseUnicodeRange("U+0000-00FF,U+0131,U+0152-0153,U+2000-206F,U+20AC,U+FEFF,U+FFFD");
    const rest = subtractRanges(latin, CORE_RANGES);
    for (let cp = 0; cp <= 0xffff; cp++) {
      const inCore = covers(CORE_RANGES, cp) && covers(latin, cp);
      expect(covers(rest, cp) && inCore, `U+${cp.toString(16)} in both`).toBe(false);
      expect(covers(rest, cp) || inCore, `U+${cp.toString(16)} lost`).toBe(covers(latin, cp));
    }
    expect(formatUnicodeRange(rest)).toBe(
      "U+0000-001F,U+007F-009F,U+00A1-00A8,U+00AA-00B6,U+00B8-00FF,U+0131,U+0152-0153,U+2000-2012,U+2015-2017," +
        "U+201B,U+201F-2021,U+2023-2025,U+2027-2038,U+203B-206F,U+20AC,U+FEFF,U+FFFD",
    );
  });

  it("reads and writes CSS unicode-range values", () => {
    expect(parseUnicodeRange("U+0020-007E, U+00A9,u+2013-2014")).toEqual([
      [0x20, 0x7e],
      [0xa9, 0xa9],
      [0x2013, 0x2014],
    ]);
    expect(
      formatUnicodeRange([
        [0x20, 0x7e],
        [0xa9, 0xa9],
      ]),
    ).toBe("U+0020-007E,U+00A9");
    expect(subtractRanges([[0, 10]], [[0, 10]])).toEqual([]);
    expect(
      subtractRanges(
        [
          [0, 10],
          [11, 12],
        ],
        [],
      ),
    ).toEqual([[0, 12]]);
  });
});
