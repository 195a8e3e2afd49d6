import { afterEach, describe, expect, it } from "vitest";
import { BLANK_PAGE, type BaselineServer, documentHeaders, startBaselineServer } from "./baseline-page";

const siteResponse = new Headers({
  "Content-Security-Policy": "default-src 'self';script-src 'self' 'nonce-abc'",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Origin-Agent-Cluster": "?1",
  "X-Frame-Options": "DENY",
  "Content-Type": "text/html; charset=utf-8",
  "Content-Length": "55272",
  "Content-Encoding": "br",
  "Cache-Control": "public, max-age=0, must-revalidate",
  ETag: 'W/"abc"',
  Vary: "Cookie, Accept-Encoding",
  "X-Page-Cache": "HIT",
  Date: "Mon, 23 Nov 2026 20:33:05 GMT",
});

describe("the blank baseline page", () => {
  let server: BaselineServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("takes the site's headers that shape how a browser loads a page, and none that describe one response", () => {
    expect(documentHeaders(siteResponse)).toEqual({
      "content-security-policy": "default-src 'self';script-src 'self' 'nonce-abc'",
      "cross-origin-opener-policy": "same-origin",
      "origin-agent-cluster": "?1",
      "x-frame-options": "DENY",
    });
  });

  it("is served plain at one address and with the site's headers at another", async () => {
    server = await startBaselineServer(documentHeaders(siteResponse));
    const plain = await fetch(server.plainUrl);
    expect(plain.status).toBe(200);
    expect(await plain.text()).toBe(BLANK_PAGE);
    expect(plain.headers.get("cross-origin-opener-policy")).toBeNull();

    const withHeaders = await fetch(server.siteHeadersUrl);
    expect(withHeaders.status).toBe(200);
    expect(await withHeaders.text()).toBe(BLANK_PAGE);
    expect(withHeaders.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(withHeaders.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(withHeaders.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(withHeaders.headers.get("content-length")).toBe(String(Buffer.byteLength(BLANK_PAGE)));
  });

  it("answers 404 anywhere else", async () => {
    server = await startBaselineServer({});
    const response = await fetch(server.plainUrl.replace("/plain", "/favicon.ico"));
    expect(response.status).toBe(404);
  });

  it("has no script, stylesheet, image or font to load, and is a complete page", () => {
    expect(BLANK_PAGE).not.toMatch(/<(script|link|img|style|iframe)\b/i);
    expect(BLANK_PAGE).toMatch(/^<!DOCTYPE html><html lang="en-ZA">/);
    expect(BLANK_PAGE).toMatch(/<title>[^<]+<\/title>/);
    expect(BLANK_PAGE).toMatch(/<meta name="description" content="[^"]+">/);
  });
});
