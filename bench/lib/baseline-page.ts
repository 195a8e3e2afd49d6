// The same-run baseline of `npm run budget`: a page with nothing in it, served by a bare Node server
// on this machine and measured with the same Lighthouse settings as the routes, in the same run.
// What it scores is what the machine, the browser and the response headers cost before the site
// does anything: the floor every route starts from (decision 074).
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A valid, accessible page with one heading and one paragraph: no script, no stylesheet, no image,
 * no font. Its language, title and description keep Lighthouse's other categories quiet, so that
 * only the timing figures say anything.
 */
export const BLANK_PAGE =
  `<!DOCTYPE html><html lang="en-ZA"><head><meta charset="utf-8"><meta name="viewport" ` +
  `content="width=device-width, initial-scale=1"><title>Baseline page</title><meta name="description" content="A page ` +
  `with nothing in it, measured beside the site's routes."></head><body><main><h1>Baseline page</h1><p>Nothing here ` +
  `runs or loads: this page measures the machine and the browser.</p></main></body></html>`;

/**
 * Headers that describe one response's bytes or one connection, not how a browser treats the page:
 * the blank page answers with its own. Everything else the site sends (its security headers, among
 * them the opener policy that gives the page a process of its own) is copied.
 */
const PER_RESPONSE = new Set([
  "cache-control",
  "connection",
  "content-encoding",
  "content-length",
  "content-type",
  "date",
  "etag",
  "keep-alive",
  "last-modified",
  "set-cookie",
  "transfer-encoding",
  "vary",
  "x-page-cache",
]);

/** The headers of a page of the site that the blank page is served with. */
export function documentHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!PER_RESPONSE.has(name.toLowerCase())) kept[name] = value;
  });
  return kept;
}

export interface BaselineServer {
  /** The blank page with no headers but its own. */
  plainUrl: string;
  /** The blank page with the headers of the site's home page. */
  siteHeadersUrl: string;
  stop(): Promise<void>;
}

/** Serves the blank page on a free loopback port: at `/plain` as it is, at `/site-headers` with `headers` added. */
export async function startBaselineServer(headers: Record<string, string>): Promise<BaselineServer> {
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    if (path !== "/plain" && path !== "/site-headers") {
      response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found");
      return;
    }
    response.writeHead(200, {
      ...(path === "/site-headers" ? headers : {}),
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Length": Buffer.byteLength(BLANK_PAGE),
    });
    response.end(BLANK_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    plainUrl: `${base}/plain`,
    siteHeadersUrl: `${base}/site-headers`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
