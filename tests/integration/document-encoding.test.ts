import http from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { fixedClock } from "~/lib/clock";
import { createRequestListener } from "../../server/app";
import { listenOnLoopback, testViteServer } from "../support/dev-server";
import { createTestDatabase, testConfig } from "../support/test-db";

// Decision 148: a page drawn for one visitor is gzipped from the stylesheet's stored piece, and the page
// cache still stores the page's text (its render is asked for without compression).

const clock = fixedClock("2025-09-20T10:00:00+02:00");
let handle: DatabaseHandle;
let vite: ViteDevServer;
let server: http.Server;
let base: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  vite = await testViteServer();
  server = http.createServer(
    createRequestListener({ config: testConfig(), database: handle, clock }, { vite, pageCache: true }),
  );
  base = await listenOnLoopback(server);
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await vite?.close();
  await handle?.close();
});

/** A GET whose body is read as it came over the wire (fetch would inflate it). */
function get(path: string, acceptEncoding?: string) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const headers: Record<string, string> = { Accept: "text/html" };
    if (acceptEncoding !== undefined) headers["Accept-Encoding"] = acceptEncoding;
    http
      .get(new URL(path, base), { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

/** The body as the browser reads it, whatever it was sent in. */
function inflated({ headers, body }: { headers: http.IncomingHttpHeaders; body: Buffer }): string {
  const encoding = headers["content-encoding"];
  if (encoding === "gzip") return gunzipSync(body).toString();
  if (encoding === "br") return brotliDecompressSync(body).toString();
  expect(encoding).toBeUndefined();
  return body.toString();
}

/** The page with its response's nonce (in its tags and in the root loader's data) taken out. */
const withoutNonces = (html: string) => html.split(/nonce="([^"]+)"/.exec(html)![1]!).join("");

describe("a page drawn for one visitor", () => {
  it("is gzipped wherever gzip is accepted, Brotli only for a client that takes nothing else, and the same page each way", async () => {
    const plain = await get("/bag");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const html = plain.body.toString();
    expect(html).toContain("Your bag is empty.");
    expect(html.split('<style data-stylesheet="app">'), html.slice(0, 3000)).toHaveLength(2);
    expect(html.indexOf("<style data-stylesheet")).toBeLessThan(html.indexOf("</head>"));

    for (const accept of ["gzip, deflate, br, zstd", "gzip"]) {
      const gzipped = await get("/bag", accept);
      expect(gzipped.headers["content-encoding"], accept).toBe("gzip");
      expect(gzipped.headers["vary"], accept).toMatch(/Accept-Encoding/);
      expect(gzipped.body.length).toBeLessThan(plain.body.length / 3);
      expect(withoutNonces(gunzipSync(gzipped.body).toString())).toBe(withoutNonces(html));
    }

    const brotli = await get("/bag", "br");
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(withoutNonces(brotliDecompressSync(brotli.body).toString())).toBe(withoutNonces(html));
  });

  it("leaves the page cache storing the page's text: a cached page is the same gzipped, plain, missed or hit", async () => {
    const first = await get("/about", "gzip, deflate, br");
    const second = await get("/about", "gzip, deflate, br");
    const plain = await get("/about");
    expect(second.headers["x-page-cache"]).toBe("HIT");
    expect(second.headers["content-encoding"]).toBe("gzip");
    const html = plain.body.toString();
    expect(html).toContain("</html>");
    expect(withoutNonces(inflated(first))).toBe(withoutNonces(html));
    expect(withoutNonces(inflated(second))).toBe(withoutNonces(html));
  });
});
