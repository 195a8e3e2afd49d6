import http from "node:http";

/**
 * Warms a freshly started instance (decisions 100 and 120): its public pages are asked for once over loopback,
 * as an anonymous visitor asks, one after another, so the page cache holds them and the code that
 * renders them has run before a crowd does it 2 renders at a time. In the soak, the first 3 seconds
 * after a start held every page slower than 300 ms and many of the slow writes (a contact message took
 * 2.4 s, its redirect waiting for a render slot behind cold pages). `/` goes first, then the
 * sitemap's first `maxPages` pages, so there is no list to keep (the shop's own pages come first in
 * it, then products), and `extraPaths` (by default the contact form's "sent" page, where its post
 * lands, and the buying pages below). Each cached page warmed costs about 0.6 MB at rest, which is
 * why not all: 112 MB with none, 127 with 12, 143 with 40 (PostgreSQL mode, whose target is 150).
 */
export interface WarmUpOptions {
  /** The instance itself, e.g. http://127.0.0.1:3000. */
  base: string;
  extraPaths?: string[];
  maxPages?: number;
  /** Stops between two pages (the server is closing). */
  signal?: AbortSignal;
  /** Per page; a page that takes longer is left to visitors. */
  timeoutMs?: number;
}

/**
 * The contact form's "sent" page, and the two pages every buyer's requests run through that no crowd
 * finds cached: an empty bag and a checkout form (the seeded earrings; a name the owner changed still
 * draws the form with its reason). Neither is cached nor stores anything; warmed, the soak's first 30 s
 * answered 6–17% more requests (bench/results/warm-up-buying-pages.md).
 */
const WARM_UP_EXTRA_PATHS = ["/contact?sent=1", "/bag", "/checkout?type=product&item=Candy+Earrings"];
const USER_AGENT = "honey-bee-warm-up";

/** Asks for `path` and reads the answer to the end; its status, or 0 when it failed or took too long. */
function visit(
  base: string,
  path: string,
  agent: http.Agent,
  timeoutMs: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const request = http.get(
      new URL(path, base),
      { agent, headers: { "User-Agent": USER_AGENT, Accept: "text/html" }, timeout: timeoutMs },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
        response.on("error", () => resolve({ status: 0, body: "" }));
      },
    );
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve({ status: 0, body: "" }));
  });
}

/** The paths of the sitemap's own pages (same origin as its first entry), in its order. */
export function sitemapPaths(xml: string): string[] {
  const paths: string[] = [];
  let origin: string | undefined;
  for (const [, loc] of xml.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/g)) {
    let url: URL;
    try {
      url = new URL(loc!.replaceAll("&amp;", "&"));
    } catch {
      continue;
    }
    origin ??= url.origin;
    if (url.origin === origin && !paths.includes(url.pathname + url.search)) paths.push(url.pathname + url.search);
  }
  return paths;
}

/** Warms the instance; resolves with what it asked for and how it went, never rejects. */
export async function warmUp(options: WarmUpOptions): Promise<{ path: string; status: number }[]> {
  const { base, extraPaths = WARM_UP_EXTRA_PATHS, maxPages = 12, signal, timeoutMs = 10_000 } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const visited: { path: string; status: number }[] = [];
  const go = async (path: string) => {
    const answer = await visit(base, path, agent, timeoutMs);
    visited.push({ path, status: answer.status });
    return answer;
  };
  try {
    // The home page first: it is what the first visitor asks for (and a load balancer's first page),
    // and asked for at once by both, it renders once. Anything first would make that visitor wait.
    await go("/");
    const sitemap = await go("/sitemap.xml");
    const first = (sitemap.status === 200 ? sitemapPaths(sitemap.body) : []).slice(0, maxPages);
    for (const path of [...first, ...extraPaths.filter((p) => !first.includes(p))]) {
      if (signal?.aborted) break;
      if (path !== "/") await go(path);
    }
  } finally {
    agent.destroy();
  }
  return visited;
}

/**
 * Warms an instance before its port opens (decision 120): the warm-up's pages are asked of the app's own
 * request listener on a private loopback port, so the page cache holds them and their code has run before
 * the first visitor comes. Warmed after opening, a crowd that came at once met a cold server: in the
 * PostgreSQL soak, 101 of the 172 checkouts over 200 ms came in its first 5 seconds. What is slower than
 * the limits is left to visitors, so a slow database delays the port by seconds at most.
 */
export async function warmBeforeListening(
  listener: http.RequestListener,
  limits: { totalMs?: number; pageMs?: number } = {},
): Promise<{ visited: { path: string; status: number }[]; ms: number }> {
  const started = performance.now();
  const warming = http.createServer(listener);
  await new Promise<void>((resolve, reject) => {
    warming.once("error", reject);
    warming.listen({ port: 0, host: "127.0.0.1" }, resolve);
  });
  const { port } = warming.address() as { port: number };
  try {
    const visited = await warmUp({
      base: `http://127.0.0.1:${port}`,
      signal: AbortSignal.timeout(limits.totalMs ?? 5_000),
      timeoutMs: limits.pageMs ?? 2_000,
    });
    return { visited, ms: Math.round(performance.now() - started) };
  } finally {
    await new Promise<void>((resolve) => {
      warming.close(() => resolve());
      warming.closeAllConnections();
    });
  }
}
