import { gunzipSync, gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { acceptsGzip, encodeDocument, inlineStylesheet } from "./document-encoding.server";

const SHEET_CSS = ".btn{background:#f5b400;color:#1a1a1a}".repeat(400) + "/* Tōkyō — é */";
const sheet = inlineStylesheet(SHEET_CSS);
const TAG = `<style data-stylesheet="app">${SHEET_CSS}</style>`;

describe("encodeDocument", () => {
  it("sends the head, the stylesheet's tag and the rest, and the gzip of exactly that, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.string({ unit: "grapheme" }), (head, rest) => {
        const pieces = { head, stylesheet: true, rest };
        const plain = Buffer.concat(encodeDocument(pieces, sheet, false));
        expect(plain.toString()).toBe(head + TAG + rest);
        expect(gunzipSync(Buffer.concat(encodeDocument(pieces, sheet, true))).equals(plain)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("sends a fragment without a head as it is, with no stylesheet", () => {
    const pieces = { head: "<p>R 1 250,00</p>", stylesheet: false, rest: "" };
    expect(Buffer.concat(encodeDocument(pieces, sheet, false)).toString()).toBe("<p>R 1 250,00</p>");
    expect(gunzipSync(Buffer.concat(encodeDocument(pieces, sheet, true))).toString()).toBe("<p>R 1 250,00</p>");
  });

  it("compresses a page about as well as gzip does the whole of it", () => {
    const head = '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>Your bag</title>';
    const rest =
      "</head><body>" +
      '<li class="flex gap-3"><a href="/product/candy-earrings">Candy Earrings</a> R 250,00</li>'.repeat(60);
    const whole = Buffer.from(head + TAG + rest);
    const spliced = Buffer.concat(encodeDocument({ head, stylesheet: true, rest }, sheet, true));
    expect(spliced.length).toBeLessThan(gzipSync(whole).length * 1.1 + 64);
    expect(spliced.length).toBeLessThan(whole.length / 5);
  });

  it("refuses a stylesheet that would end its own <style> element", () => {
    expect(() => inlineStylesheet("a{}</style><script>x()</script>")).toThrow();
  });
});

describe("acceptsGzip", () => {
  it("follows the request's Accept-Encoding", () => {
    expect(acceptsGzip("gzip, deflate, br, zstd")).toBe(true);
    expect(acceptsGzip("br;q=1, gzip;q=0.5")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip("gzip;q=0, br")).toBe(false);
    expect(acceptsGzip("br")).toBe(false);
    expect(acceptsGzip("identity")).toBe(false);
    expect(acceptsGzip("")).toBe(false);
    expect(acceptsGzip(null)).toBe(false);
  });
});
