import { crc32, gunzipSync, gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crc32Combine, crc32Shift } from "~/lib/gzip-pieces.server";
import { compilePageTemplate as compileAt, fillPage, fillPageGzip, slotsOf } from "./page-template";

const SLOT = "__slot__";
const compilePageTemplate = (text: string, slot: string) => compileAt(text, slotsOf(text, slot));

describe("page templates", () => {
  it("inflate to the text with the value in every slot, wherever the slots are", () => {
    const page =
      `${SLOT}<html><head><script nonce="${SLOT}">a()</script></head>` +
      `<body>${"Tōkyō é ".repeat(500)}<script nonce="${SLOT}"></script></body></html>${SLOT}`;
    const template = compilePageTemplate(page, SLOT);
    for (const nonce of ["abc123==", "", "ü+/=", "$`$&$'"]) {
      expect(gunzipSync(fillPageGzip(template, nonce)).toString()).toBe(page.split(SLOT).join(nonce));
      expect(fillPage(template, nonce).toString()).toBe(page.split(SLOT).join(nonce));
    }
  });

  it("inflate correctly for any text and value (generated)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme" }), { maxLength: 6 }), fc.string(), (parts, value) => {
        const text = parts.join(SLOT);
        const template = compilePageTemplate(text, SLOT);
        // split/join, not replaceAll: a replacement string gives "$`" and "$&" a meaning.
        const expected = text.split(SLOT).join(value);
        expect(gunzipSync(fillPageGzip(template, value)).toString()).toBe(expected);
        expect(fillPage(template, value).toString()).toBe(expected);
      }),
    );
  });

  it("fills only the recorded slots: the marker's text elsewhere comes back as it was", () => {
    const text = `<p>${SLOT}</p><script nonce="N0NCE"></script><p>N0NCE-less ${SLOT}</p>`;
    const slots = { offsets: [text.indexOf("N0NCE")], length: "N0NCE".length };
    const expected = `<p>${SLOT}</p><script nonce="fresh"></script><p>N0NCE-less ${SLOT}</p>`;
    expect(fillPage(compileAt(text, slots), "fresh").toString()).toBe(expected);
    expect(gunzipSync(fillPageGzip(compileAt(text, slots), "fresh")).toString()).toBe(expected);
  });

  it("a text without slots comes back as it was", () => {
    expect(gunzipSync(fillPageGzip(compilePageTemplate("", SLOT), "x")).toString()).toBe("");
    expect(gunzipSync(fillPageGzip(compilePageTemplate("hello", SLOT), "x")).toString()).toBe("hello");
  });

  it("costs little in size against compressing the whole text at once", () => {
    const css = Array.from(
      { length: 400 },
      (_, i) => `.c${i}{margin:${i}px;color:#${(i * 2654435761).toString(16).slice(0, 6)}}`,
    ).join("");
    const page =
      `<head><link nonce="${SLOT}" rel="preload"/><style>${css}</style></head>` +
      `<body>${"<p class='c1'>Honey Bee</p>".repeat(300)}<script nonce="${SLOT}">x()</script></body>`;
    const nonce = "q2d1Jm2f0c8yq0P0kxQ0Aw==";
    const whole = gzipSync(page.replaceAll(SLOT, nonce), { level: 9 }).length;
    const pieced = fillPageGzip(compilePageTemplate(page, SLOT), nonce).length;
    expect(pieced).toBeLessThan(whole * 1.03 + 64);
  });

  it("a value longer than a stored block holds (64 KB) still inflates", () => {
    const template = compilePageTemplate(`a${SLOT}b`, SLOT);
    const value = "n".repeat(70_000);
    expect(gunzipSync(fillPageGzip(template, value)).toString()).toBe(`a${value}b`);
  });

  it("combines CRC-32s as a checksum of the whole would (generated, any lengths)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 3000 }), (a, b) => {
        const whole = crc32(Buffer.concat([Buffer.from(a), Buffer.from(b)]));
        expect(crc32Combine(crc32(Buffer.from(a)), crc32(Buffer.from(b)), crc32Shift(b.length))).toBe(whole);
      }),
    );
    const big = Buffer.alloc(200_000, 7);
    expect(crc32Combine(crc32(Buffer.from("x")), crc32(big), crc32Shift(big.length))).toBe(
      crc32(Buffer.concat([Buffer.from("x"), big])),
    );
  });
});
