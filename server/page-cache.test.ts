import express from "express";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Database } from "~/db/client.server";
import type { ContentChange } from "~/db/client.server";
import { showsStock } from "./cacheable-pages";
import { createPageCache } from "./page-cache";

// Concurrent misses of one page wait for one render (issue 22's spike: 500 simultaneous renders of a
// product page after its cache entry went stale took the server to 3.5 GB and timed visitors out).

let server: http.Server | undefined;
let releaseRenders: (() => void) | undefined;
afterEach(async () => {
  // A failed expectation must not leave requests waiting on the gate.
  releaseRenders?.();
  server?.closeAllConnections();
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

async function start(
  options: {
    status?: number;
    version?: () => string | Promise<string>;
    stock?: () => string | Promise<string>;
    maxVersionAgeMs?: number;
    subscribe?: (onChange: (what: ContentChange) => void) => void;
    /** Awaited by every render after the gate: a render the test holds until it lets it go. */
    hold?: () => Promise<void> | undefined;
    /**
     * Tries memory before Express as the server does (server/app.ts), twice, as admission does for a
     * request that then waited for a render slot.
     */
    fastPath?: boolean;
  } = {},
) {
  let renders = 0;
  let versionReads = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  releaseRenders = () => release();
  const db = {
    execute: async () => {
      versionReads++;
      const [content, stock] = await Promise.all([options.version?.() ?? "1", options.stock?.() ?? "1"]);
      return { rows: [{ content, stock }] };
    },
  } as unknown as Database;
  const cache = createPageCache({
    db,
    versionCheckMs: 0,
    maxVersionAgeMs: options.maxVersionAgeMs ?? 0,
    subscribe: options.subscribe,
    render: async (request, res) => {
      const render = ++renders;
      await gate;
      await options.hold?.();
      const nonce = res.locals.nonce as string;
      const page = new URL(request.url).pathname;
      return new Response(`<html><script nonce="${nonce}"></script>${page}<!-- render ${render} --></html>`, {
        status: options.status ?? 200,
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    },
  });
  const app = express();
  app.use((_req, res, next) => {
    res.locals.nonce = randomBytes(8).toString("base64url");
    next();
  });
  if (options.fastPath) {
    app.use((req, res, next) => {
      if (!cache.tryServe(req, res, []) && !cache.tryServe(req, res, [])) next();
    });
  }
  app.use(cache.middleware);
  server = http.createServer(app).listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  return { base, release, renders: () => renders, versionReads: () => versionReads };
}

const get = (url: string) =>
  fetch(url, { headers: { "accept-encoding": "identity" } }).then(async (r) => ({
    status: r.status,
    body: await r.text(),
    state: r.headers.get("x-page-cache"),
  }));

describe("page cache under a crowd", () => {
  it("renders a page once for every concurrent miss, and gives each its own nonce", async () => {
    const app = await start();
    const answers = Promise.all(Array.from({ length: 40 }, () => get(`${app.base}/product/candy-earrings`)));
    await expect.poll(() => app.renders(), { timeout: 2000 }).toBeGreaterThan(0);
    // Give the other 39 time to arrive and queue behind the one render.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(app.renders()).toBe(1);
    app.release();
    const done = await answers;
    expect(app.renders()).toBe(1);
    expect(done.every((a) => a.status === 200 && a.body.includes("/product/candy-earrings<!--"))).toBe(true);
    const nonces = new Set(done.map((a) => /nonce="([^"]+)"/.exec(a.body)?.[1]));
    expect(nonces.size).toBe(40);
    expect(done.filter((a) => a.state === "MISS")).toHaveLength(1);
  });

  it("renders each page of a crowd once, not once for all of them", async () => {
    const app = await start();
    const answers = Promise.all(["/", "/events", "/", "/events", "/blog"].map((p) => get(`${app.base}${p}`)));
    await expect.poll(() => app.renders()).toBe(3);
    app.release();
    expect((await answers).map((a) => a.body.replace(/<script[^>]*><\/script>|<!--.*-->/g, ""))).toEqual(
      ["/", "/events", "/", "/events", "/blog"].map((p) => `<html>${p}</html>`),
    );
    expect(app.renders()).toBe(3);
  });

  it("lets each request render its own answer when the page is not one it may keep", async () => {
    const app = await start({ status: 404 });
    const answers = Promise.all(Array.from({ length: 5 }, () => get(`${app.base}/product/gone`)));
    await expect.poll(() => app.renders()).toBe(1);
    app.release();
    const done = await answers;
    expect(done.every((a) => a.status === 404)).toBe(true);
    expect(app.renders()).toBe(5);
  });

  it("renders again for a new content version", async () => {
    let version = 1;
    const app = await start({ version: () => String(version) });
    app.release();
    await get(`${app.base}/`);
    await get(`${app.base}/`);
    expect(app.renders()).toBe(1);
    version = 2;
    await get(`${app.base}/`);
    expect(app.renders()).toBe(2);
  });

  it("answers from memory while the next version read waits on a busy database, and renders once it lands", async () => {
    let version = "1";
    let answerRead: (() => void) | undefined;
    const app = await start({
      maxVersionAgeMs: 60_000,
      version: () => (answerRead ? new Promise<string>((resolve) => (answerRead = () => resolve(version))) : version),
    });
    app.release();
    await get(`${app.base}/`);
    expect(app.renders()).toBe(1);
    // The database is slow to answer, and the content has changed without a notification (one lost).
    answerRead = () => {};
    version = "2";
    const whileReading = await get(`${app.base}/`);
    expect(whileReading).toMatchObject({ status: 200, state: "HIT" });
    expect(app.versionReads()).toBe(2);
    // One read in the background for every request that came meanwhile.
    await get(`${app.base}/`);
    expect(app.versionReads()).toBe(2);
    const landed = answerRead;
    answerRead = undefined;
    landed();
    await expect.poll(async () => (await get(`${app.base}/`)).state).toBe("MISS");
    expect(app.renders()).toBe(2);
  });

  it("stops answering from memory the moment a change is announced, without waiting for the next read", async () => {
    let version = "1";
    let announce!: (what: ContentChange) => void;
    const app = await start({
      maxVersionAgeMs: 60_000,
      version: () => version,
      subscribe: (onChange) => (announce = onChange),
    });
    app.release();
    await get(`${app.base}/`);
    expect((await get(`${app.base}/`)).state).toBe("HIT");
    version = "2";
    announce("content");
    expect((await get(`${app.base}/`)).state).toBe("MISS");
    expect(app.renders()).toBe(2);
  });

  it("keeps answering pages without stock from memory when only stock moved, and renders the pages that show it", async () => {
    let stock = "1";
    let answerRead: (() => void) | undefined;
    let announce!: (what: ContentChange) => void;
    const app = await start({
      maxVersionAgeMs: 60_000,
      stock: () => (answerRead ? new Promise<string>((resolve) => (answerRead = () => resolve(stock))) : stock),
      subscribe: (onChange) => (announce = onChange),
    });
    app.release();
    for (const page of ["/about", "/product/candy-earrings"]) await get(`${app.base}${page}`);
    expect(app.renders()).toBe(2);
    // A hold on the last piece: the notice says only stock moved, and the database is slow to answer.
    answerRead = () => {};
    stock = "2";
    announce("stock");
    expect(await get(`${app.base}/about`)).toMatchObject({ status: 200, state: "HIT" });
    const product = get(`${app.base}/product/candy-earrings`);
    await expect.poll(() => app.versionReads()).toBe(3);
    expect(app.renders()).toBe(2);
    const landed = answerRead;
    answerRead = undefined;
    landed();
    expect(await product).toMatchObject({ status: 200, state: "MISS" });
    expect(await get(`${app.base}/about`)).toMatchObject({ state: "HIT" });
    expect(app.renders()).toBe(3);
  });
});

describe.each([
  ["through Express", false],
  ["from memory before Express", true],
])("a page that shows stock, while it is rendered again (decision 140), %s", (_, fastPath) => {
  /** A render the test lets go of: `hold` is awaited by every render while `held` is set. */
  function renderHold() {
    let held: Promise<void> | undefined;
    let letGo = () => {};
    return {
      hold: () => held,
      close: () => (held = new Promise<void>((resolve) => (letGo = resolve))),
      open: () => {
        held = undefined;
        letGo();
      },
    };
  }
  const renderOf = (body: string) => Number(/render (\d+)/.exec(body)?.[1]);

  async function soldOnePiece() {
    let stock = 1;
    let content = 1;
    let announce!: (what: ContentChange) => void;
    const gate = renderHold();
    const app = await start({
      maxVersionAgeMs: 60_000,
      version: () => String(content),
      stock: () => String(stock),
      subscribe: (onChange) => (announce = onChange),
      hold: gate.hold,
      fastPath,
    });
    app.release();
    const page = `${app.base}/product/candy-earrings`;
    expect(await get(page)).toMatchObject({ state: "MISS" });
    const sell = () => {
      stock++;
      announce("stock");
    };
    const edit = () => {
      content++;
      announce("content");
    };
    return { app, page, gate, sell, edit };
  }

  it("gives the crowd the previous render while the first request after a sale renders the new one", async () => {
    const { app, page, gate, sell } = await soldOnePiece();
    sell();
    gate.close();
    const first = get(page);
    await expect.poll(() => app.renders()).toBe(2);
    const crowd = await Promise.all(Array.from({ length: 10 }, () => get(page)));
    expect(crowd.every((a) => a.status === 200 && a.state === "STALE" && renderOf(a.body) === 1)).toBe(true);
    // Each still gets its own nonce.
    expect(new Set(crowd.map((a) => /nonce="([^"]+)"/.exec(a.body)?.[1])).size).toBe(10);
    expect(app.renders()).toBe(2);
    gate.open();
    expect(await first).toMatchObject({ status: 200, state: "MISS" });
    expect(renderOf((await first).body)).toBe(2);
    const after = await get(page);
    expect(after.state).toBe("HIT");
    expect(renderOf(after.body)).toBe(2);
  });

  it("renders for the first visitor after a sale: nobody gets the previous page unless a render is under way", async () => {
    const { app, page, sell } = await soldOnePiece();
    for (let sale = 2; sale <= 4; sale++) {
      sell();
      const next = await get(page);
      expect(next.state).toBe("MISS");
      expect(renderOf(next.body)).toBe(sale);
    }
    expect(app.renders()).toBe(4);
  });

  it("stops giving the previous page once the render has taken longer than a version may be old", async () => {
    const { app, page, gate, sell } = await soldOnePiece();
    sell();
    gate.close();
    const first = get(page);
    await expect.poll(() => app.renders()).toBe(2);
    expect((await get(page)).state).toBe("STALE");
    const realNow = Date.now;
    const later = vi.spyOn(Date, "now").mockImplementation(() => realNow() + 60_000);
    let second: ReturnType<typeof get>;
    const reads = app.versionReads();
    try {
      // The previous render is a minute behind: this request reads the version and waits for the page as it is now.
      second = get(page);
      await expect.poll(() => app.versionReads()).toBeGreaterThan(reads);
    } finally {
      later.mockRestore();
    }
    gate.open();
    expect(await second).toMatchObject({ status: 200, state: "HIT" });
    expect(renderOf((await second).body)).toBe(2);
    expect((await first).state).toBe("MISS");
  });

  it("never gives the previous page after the content changed (a price, a name)", async () => {
    const { app, page, gate, edit } = await soldOnePiece();
    edit();
    gate.close();
    const answers = Promise.all(Array.from({ length: 5 }, () => get(page)));
    await expect.poll(() => app.renders()).toBe(2);
    gate.open();
    const done = await answers;
    expect(done.some((a) => a.state === "STALE")).toBe(false);
    expect(done.every((a) => renderOf(a.body) === 2)).toBe(true);
  });

  it("keeps pages that show no stock on the usual rules", async () => {
    const { app, gate, sell } = await soldOnePiece();
    const about = `${app.base}/about`;
    expect((await get(about)).state).toBe("MISS");
    sell();
    gate.close();
    expect((await get(about)).state).toBe("HIT");
    gate.open();
  });
});

describe("pages that show stock", () => {
  it("counts every page as showing stock unless it is one known not to", () => {
    for (const page of [
      "/",
      "/about",
      "/contact",
      "/events",
      "/blog",
      "/blog/a-post",
      "/events-gallery",
      "/consultation-services",
      "/sitemap.xml",
      "/?utm_source=x",
    ]) {
      expect(showsStock(page), page).toBe(false);
    }
    for (const page of [
      "/styled-collections",
      "/product/candy-earrings",
      "/tickets/sip-style",
      "/workshop/tablecloth-skirt",
      "/membership/honey",
      "/test",
      "/new-page",
    ]) {
      expect(showsStock(page), page).toBe(true);
    }
  });
});
