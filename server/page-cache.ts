import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request as ExpressRequest, RequestHandler } from "express";
import { sql } from "drizzle-orm";
import type { ContentChange, Database } from "~/db/client.server";
import { isCacheablePage, showsStock } from "./cacheable-pages";
import { newNonce } from "./nonce";
import { compilePageTemplate, fillPage, fillPageGzip, slotsOf, type PageTemplate } from "./page-template";

/**
 * Anonymous public pages served from memory until the data they show changes.
 *
 * - Only GET/HEAD of public paths, from visitors who send no cookie at all (a signed-in admin always
 *   has one), so nobody ever gets a page rendered for someone else.
 * - Entries are tied to the database's `content_version` sequence, which triggers move on every change
 *   to catalog, events, tickets, tiers, posts, photos and settings; a page that shows stock is also tied
 *   to `stock_version`, which holds, sales and stock counts move (decision 094), so a crowd buying
 *   the last pieces leaves the other pages in memory. Instances read both at most every
 *   `versionCheckMs`, so a change reaches every instance within that time. Entries also expire after
 *   `ttlMs` (date rules, view counts).
 * - After stock alone moved, the first request for a page that shows it renders the page again, and
 *   meanwhile the others get its previous render, at most `maxVersionAgeMs` behind (decision 140).
 * - The CSP nonce differs per response: the stored page records the offsets where the render put its
 *   nonce, and each response gets the fresh nonce helmet already put in its header at those offsets.
 */
export interface PageCacheOptions {
  db: Database;
  render: (request: Request, res: Parameters<RequestHandler>[1]) => Promise<Response>;
  maxEntries?: number;
  ttlMs?: number;
  versionCheckMs?: number;
  /**
   * How long a version read stays usable while its next read is under way in the background: hits are
   * answered from memory meanwhile instead of waiting for the database (which, under a crowd, queues
   * the read behind every write). A change announced by NOTIFY still ends every hit at once.
   */
  maxVersionAgeMs?: number;
  /**
   * Tells the cache at once when content or only stock changed (the database's NOTIFY), ahead of its
   * next version read.
   */
  subscribe?: (onChange: (what: ContentChange) => void) => unknown;
}

interface Entry {
  /** The page as bytes, plain and gzipped, around its nonce slots (server/page-template.ts). */
  compiled: PageTemplate;
  etag: string;
  contentType: string;
  version: string;
  storedAt: number;
}

/** Content and stock versions as read together. */
export interface Versions {
  content: string;
  stock: string;
}

/** Both versions in one read (also what tests/integration/stock-version.test.ts compares). */
export async function readVersions(db: Database): Promise<Versions> {
  const result = await db.execute(
    sql`select c.last_value::text || ':' || c.is_called as content, s.last_value::text || ':' || s.is_called as stock
      from content_version c, stock_version s`,
  );
  const row = (result as unknown as { rows: Versions[] }).rows[0];
  return { content: `${row?.content}`, stock: `${row?.stock}` };
}

/** The version a page's entry is tied to: content alone, or content and stock. */
const versionFor = (url: string, versions: Versions) =>
  showsStock(url) ? `${versions.content}|${versions.stock}` : versions.content;

const isCacheablePageRequest = (req: ExpressRequest) => isCacheablePage(req.method, req.originalUrl, req.headers);

/** Response headers with a placeholder where the per-response nonce goes. */
export type HeaderTemplate = [name: string, value: string][];
export const HEADER_NONCE_PLACEHOLDER = "__honey_header_nonce__";

/**
 * Sets the captured security headers with a fresh nonce (what Express would have set on this
 * response) and returns that nonce, for the page's own scripts.
 */
export function setSecurityHeaders(res: ServerResponse, template: HeaderTemplate): string {
  const nonce = newNonce();
  for (const [name, value] of template) res.setHeader(name, value.replace(HEADER_NONCE_PLACEHOLDER, nonce));
  return nonce;
}

export function createPageCache(options: PageCacheOptions) {
  const maxEntries = options.maxEntries ?? 300;
  const ttlMs = options.ttlMs ?? 60_000;
  const versionCheckMs = options.versionCheckMs ?? 250;
  const maxVersionAgeMs = Math.max(versionCheckMs, options.maxVersionAgeMs ?? 2_000);
  const entries = new Map<string, Entry>();
  // One render per page and content version at a time: when a change (a hold on a limited piece)
  // empties the cache under a crowd, every request for that page waits for one render instead of
  // each rendering it (a spike of 500 concurrent renders of one product page took 3.5 GB).
  const rendering = new Map<string, Promise<Entry | undefined>>();
  let version: { value: Versions; readAt: number } | undefined;
  let versionRead: Promise<Versions> | undefined;
  // A stock change was announced since the last read: pages that show stock wait for the next read,
  // the others keep the content version they have.
  let stockStale = false;
  // Pages that show stock being rendered again after stock moved, and the request rendering each:
  // meanwhile everyone else gets the page's previous render (decision 140).
  const refreshing = new Map<string, { since: number; request: IncomingMessage }>();
  const stats = { hits: 0, misses: 0, bypass: 0, stale: 0 };
  // Changes announced so far: a read that began before the latest one may return the old version,
  // so it is used for its own request but not remembered.
  let changes = 0;
  options.subscribe?.((what) => {
    changes++;
    versionRead = undefined;
    if (what === "stock" && version) {
      stockStale = true;
      readVersion().catch(() => {});
    } else {
      version = undefined;
    }
  });

  /**
   * The version a page's entry must have, from the last read while it is usable: younger than
   * `versionCheckMs`, or younger than `maxVersionAgeMs` with the next read started in the background.
   * Undefined after a change the page depends on was announced, or when the last read is too old (the
   * database stopped answering): then requests wait for a read of their own.
   */
  function knownVersion(url: string): string | undefined {
    if (!version) return undefined;
    if (stockStale && showsStock(url)) return undefined;
    const age = Date.now() - version.readAt;
    if (age >= maxVersionAgeMs) return undefined;
    // A failed background read leaves the last one in use until it is too old.
    if (age >= versionCheckMs && !versionRead) readVersion().catch(() => {});
    return versionFor(url, version.value);
  }

  /**
   * Whether `request` may have the previous render of a page that shows stock (decision 140): only
   * stock has moved since it was rendered (its content version is the one last read, and that read
   * is usable), and another request is rendering the page again, begun less than `maxVersionAgeMs`
   * ago. Otherwise this request becomes the one that renders it: the first visitor after a sale sees
   * the new count, and a crowd waits for no render, only reads the page as it was a moment before.
   */
  function mayServePrevious(
    request: IncomingMessage,
    url: string,
    cached: Entry,
    known: string | undefined = knownVersion(url),
  ): boolean {
    if (!showsStock(url) || !version) return false;
    const now = Date.now();
    if (now - version.readAt >= maxVersionAgeMs || now - cached.storedAt >= ttlMs) return false;
    if (cached.version.split("|", 1)[0] !== version.value.content) return false;
    if (cached.version === known) return false;
    const refresh = refreshing.get(url);
    if (refresh && now - refresh.since < maxVersionAgeMs) return refresh.request !== request;
    refreshing.set(url, { since: now, request });
    // A render that never finished (its request was shed while it waited) leaves its mark: keep no more
    // marks than pages.
    if (refreshing.size > maxEntries) {
      for (const [key, mark] of refreshing) if (now - mark.since >= maxVersionAgeMs) refreshing.delete(key);
    }
    return false;
  }

  async function currentVersion(url: string): Promise<string> {
    return knownVersion(url) ?? versionFor(url, await readVersion());
  }

  function readVersion(): Promise<Versions> {
    // One query in flight at a time, shared by every request waiting for it.
    const startedAt = changes;
    const read = (versionRead ??= readVersions(options.db)
      .then((value) => {
        if (changes === startedAt) {
          version = { value, readAt: Date.now() };
          stockStale = false;
        }
        return value;
      })
      .finally(() => {
        if (versionRead === read) versionRead = undefined;
      }));
    return read;
  }

  function remember(key: string, entry: Entry) {
    entries.delete(key);
    entries.set(key, entry);
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
  }

  const middleware: RequestHandler = async (req, res, next) => {
    if (!isCacheablePageRequest(req)) {
      stats.bypass++;
      return next();
    }
    try {
      await serveOrRender(req, res, next);
    } finally {
      // However it ended, the next request after a stock change may render the page again.
      if (refreshing.get(req.originalUrl)?.request === req) refreshing.delete(req.originalUrl);
    }
  };

  const serveOrRender: RequestHandler = async (req, res, next) => {
    let current: string;
    const previous = entries.get(req.originalUrl);
    if (previous && mayServePrevious(req, req.originalUrl, previous)) {
      stats.stale++;
      return send(req, res, previous, res.locals.nonce as string, "STALE");
    }
    try {
      current = await currentVersion(req.originalUrl);
    } catch {
      // The database is unreachable: render normally, so the page says so with its 503 error screen.
      stats.bypass++;
      return next();
    }
    try {
      const nonce = res.locals.nonce as string;
      const key = req.originalUrl;
      const now = Date.now();
      const cached = entries.get(key);
      if (cached && cached.version === current && now - cached.storedAt < ttlMs) {
        stats.hits++;
        return send(req, res, cached, nonce, "HIT");
      }
      stats.misses++;
      const renderKey = `${current} ${key}`;
      const inFlight = rendering.get(renderKey);
      if (inFlight) {
        const rendered = await inFlight;
        // Not storable (an error page, a redirect): this request renders its own answer below.
        if (rendered) return send(req, res, rendered, nonce, "HIT");
      }
      let settle: (entry: Entry | undefined) => void = () => {};
      if (!inFlight) {
        rendering.set(renderKey, new Promise<Entry | undefined>((resolve) => (settle = resolve)));
      }
      try {
        return await renderAndStore(req, res, key, current, now, nonce, (entry) => settle(entry));
      } finally {
        settle(undefined);
        if (!inFlight) rendering.delete(renderKey);
      }
    } catch (error) {
      next(error);
    }
  };

  async function renderAndStore(
    req: ExpressRequest,
    res: Parameters<RequestHandler>[1],
    key: string,
    current: string,
    now: number,
    nonce: string,
    stored: (entry: Entry) => void,
  ) {
    const url = `${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
    }
    // The stored text is read below: the render must not compress it (the page is stored and sent
    // from its own template, gzipped or not).
    headers.delete("accept-encoding");
    const response = await options.render(new Request(url, { method: "GET", headers }), res);
    const body = await response.text();
    const contentType = response.headers.get("content-type") ?? "text/html; charset=utf-8";
    const storable =
      response.status === 200 &&
      !response.headers.has("set-cookie") &&
      !/no-store|private/.test(response.headers.get("cache-control") ?? "");
    if (!storable) {
      res.status(response.status);
      response.headers.forEach((value, name) => {
        if (name !== "content-length" && name !== "content-encoding") res.append(name, value);
      });
      return res.send(body);
    }
    // The slots are where this render put its nonce, found once now; a response fills exactly those,
    // so text that merely looks like a marker is sent as it was written (decision 108).
    const slots = slotsOf(body, nonce);
    const compiled = compilePageTemplate(body, slots);
    const etagHash = createHash("sha1");
    for (const part of compiled.parts) etagHash.update(part).update("\0");
    const entry: Entry = {
      compiled,
      etag: `W/"${etagHash.digest("base64url").slice(0, 27)}"`,
      contentType,
      version: current,
      storedAt: now,
    };
    remember(key, entry);
    stored(entry);
    return send(req, res, entry, nonce, "MISS");
  }

  /**
   * The fast path, before Express: a fresh hit is answered straight from memory with the same
   * security headers Express would send. Anything else (a miss, a stale version) returns false and
   * goes through Express, which renders and refreshes.
   */
  function tryServe(req: IncomingMessage, res: ServerResponse, securityHeaders: HeaderTemplate): boolean {
    const url = req.url ?? "/";
    if (!isCacheablePage(req.method, url, req.headers)) return false;
    const cached = entries.get(url);
    if (!cached) return false;
    const current = knownVersion(url);
    let state: "HIT" | "STALE" = "HIT";
    if (current === undefined || cached.version !== current || Date.now() - cached.storedAt >= ttlMs) {
      if (!mayServePrevious(req, url, cached, current)) return false;
      state = "STALE";
    }
    stats[state === "HIT" ? "hits" : "stale"]++;
    const nonce = setSecurityHeaders(res, securityHeaders);
    res.setHeader("Cache-Control", "public, max-age=0, must-revalidate");
    res.setHeader("ETag", cached.etag);
    res.setHeader("Vary", "Cookie, Accept-Encoding");
    res.setHeader("X-Page-Cache", state);
    if (req.headers["if-none-match"] === cached.etag) {
      res.removeHeader("Content-Security-Policy");
      res.statusCode = 304;
      res.end();
      return true;
    }
    let body: Buffer;
    if (/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
      body = fillPageGzip(cached.compiled, nonce);
      res.setHeader("Content-Encoding", "gzip");
    } else {
      body = fillPage(cached.compiled, nonce);
    }
    res.setHeader("Content-Type", cached.contentType);
    res.setHeader("Content-Length", body.length);
    res.statusCode = 200;
    res.end(req.method === "HEAD" ? undefined : body);
    return true;
  }

  return {
    middleware,
    tryServe,
    stats,
    clear: () => entries.clear(),
    size: () => entries.size,
  };
}

function send(
  req: ExpressRequest,
  res: Parameters<RequestHandler>[1],
  entry: Entry,
  nonce: string,
  state: "HIT" | "MISS" | "STALE",
) {
  res.setHeader("Cache-Control", "public, max-age=0, must-revalidate");
  res.setHeader("ETag", entry.etag);
  res.setHeader("Vary", "Cookie, Accept-Encoding");
  res.setHeader("X-Page-Cache", state);
  if (req.headers["if-none-match"] === entry.etag) {
    // A 304 refreshes the browser's stored headers: keep the stored page's CSP (with its nonce) intact.
    res.removeHeader("Content-Security-Policy");
    return res.status(304).end();
  }
  res.setHeader("Content-Type", entry.contentType);
  // Bytes, as on the fast path; the stored content type already names the charset.
  res.status(200).send(fillPage(entry.compiled, nonce));
}
