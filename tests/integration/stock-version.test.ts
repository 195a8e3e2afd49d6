import { sql } from "drizzle-orm";
import http from "node:http";
import type { ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { sessionStockKey } from "~/stock/keys";
import { fixedClock } from "~/lib/clock";
import { createRequestListener } from "../../server/app";
import { showsStock } from "../../server/cacheable-pages";
import { readVersions } from "../../server/page-cache";
import { listenOnLoopback, testViteServer } from "../support/dev-server";
import { createTestDatabase, testConfig } from "../support/test-db";

// Decision 094: holds, sales and stock counts move `stock_version` only, so the page cache keeps every
// page that shows no stock. These pages must then really show none: they are rendered before and
// after everything sells out, and must not change.

const clock = fixedClock("2025-09-20T10:00:00+02:00");
let handle: DatabaseHandle;
let vite: ViteDevServer;
let server: http.Server;
let base: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  vite = await testViteServer();
  // No page cache: every request renders, so the pages compared are what the database says now.
  server = http.createServer(
    createRequestListener({ config: testConfig(), database: handle, clock }, { vite, pageCache: false }),
  );
  base = await listenOnLoopback(server);
});

afterAll(async () => {
  server?.closeAllConnections();
  if (server) await new Promise((resolve) => server.close(resolve));
  await vite?.close();
  await handle?.close();
});

const rows = async <T>(query: ReturnType<typeof sql>) => (await handle.db.execute(query)) as unknown as { rows: T[] };

let orders = 0;
/** An order to hang holds on, written directly: what matters here is what the holds move. */
async function anOrder(): Promise<string> {
  const n = orders++;
  const {
    rows: [row],
  } = await rows<{ id: string }>(sql`
    insert into orders (reference, order_type, item_name, amount_cents, customer_first_name, customer_last_name,
      customer_email, customer_phone, customer_address, provider, idempotency_key)
    values (${`HB-STOCK${n}`}, 'product', 'Candy Earrings', 100, 'Thandi', 'Mokoena',
      'thandi@example.com', '0821234567', '1 Long Street', 'simulator', ${`stock-${n}`})
    returning id`);
  return row!.id;
}

async function hold(orderId: string, key: string, quantity: number, status: "held" | "converted" = "held") {
  await handle.db.execute(
    sql`insert into stock_holds (order_id, stock_key, quantity, status, expires_at)
      values (${orderId}, ${key}, ${quantity}, ${status}, now() + interval '1 day')`,
  );
}

/** The page as a visitor gets it, without what differs per response (the CSP nonce). */
async function page(path: string): Promise<string> {
  const response = await fetch(`${base}${path}`);
  expect(response.status, path).toBe(200);
  const body = await response.text();
  const nonce = /nonce="([^"]+)"/.exec(body)?.[1];
  return nonce ? body.replaceAll(nonce, "") : body;
}

describe("stock moves apart from content", () => {
  it("a hold or a sale moves the stock version only; an edit to a product moves content", async () => {
    const start = await readVersions(handle.db);
    const {
      rows: [candy],
    } = await rows<{ id: number }>(sql`select id from catalog_items where slug = 'candy-earrings'`);
    await hold(await anOrder(), `catalog:${candy!.id}`, 1);
    const held = await readVersions(handle.db);
    expect(held.content).toBe(start.content);
    expect(held.stock).not.toBe(start.stock);

    // A sale takes the unit from the count (convertHolds); the owner setting a count does the same.
    await handle.db.execute(
      sql`update catalog_items set stock_quantity = stock_quantity - 1, updated_at = now() where id = ${candy!.id}`,
    );
    const sold = await readVersions(handle.db);
    expect(sold.content).toBe(start.content);
    expect(sold.stock).not.toBe(held.stock);

    await handle.db.execute(
      sql`update catalog_items set name = 'Candy Earrings (pair)', updated_at = now() where id = ${candy!.id}`,
    );
    const renamed = await readVersions(handle.db);
    expect(renamed.content).not.toBe(start.content);
    expect(renamed.stock).toBe(sold.stock);
    await handle.db.execute(sql`update catalog_items set name = 'Candy Earrings' where id = ${candy!.id}`);
  });

  it("an unpaid hold of something uncounted (a membership, an untracked product) moves neither version", async () => {
    const start = await readVersions(handle.db);
    const orderId = await anOrder();
    await hold(orderId, "unpaid:membership:honey-bee", 1);
    await handle.db.execute(sql`update stock_holds set status = 'converted' where order_id = ${orderId}`);
    await handle.db.execute(sql`delete from stock_holds where order_id = ${orderId}`);
    expect(await readVersions(handle.db)).toEqual(start);
    // A counted hold in the same order of statements still moves the stock version each time.
    const counted = await anOrder();
    await hold(counted, "catalog:999999", 1);
    const held = await readVersions(handle.db);
    expect(held.stock).not.toBe(start.stock);
    await handle.db.execute(sql`update stock_holds set status = 'released' where order_id = ${counted}`);
    const released = await readVersions(handle.db);
    expect(released.stock).not.toBe(held.stock);
    await handle.db.execute(sql`delete from stock_holds where order_id = ${counted}`);
    expect((await readVersions(handle.db)).stock).not.toBe(released.stock);
  });

  it("tells each listener whether only stock moved", async () => {
    const heard: string[] = [];
    const stop = await handle.onContentChange((what) => heard.push(what));
    try {
      // PostgreSQL's listener connects in the background: place holds until it hears one.
      const order = await anOrder();
      await expect
        .poll(async () => {
          await hold(order, "ticket:999999", 1);
          return heard.length > 0;
        })
        .toBe(true);
      expect(heard.every((what) => what === "stock")).toBe(true);
      await handle.db.execute(
        sql`update blog_posts set title = title || '.' where slug = (select slug from blog_posts limit 1)`,
      );
      await expect.poll(() => heard.includes("content")).toBe(true);
    } finally {
      await stop();
    }
  });

  it("pages counted as showing no stock read the same after everything has sold out", async () => {
    const { rows: posts } = await rows<{ slug: string }>(sql`select slug from blog_posts where published limit 1`);
    const stockFree = [
      "/",
      "/events",
      "/about",
      "/contact",
      "/blog",
      `/blog/${posts[0]!.slug}`,
      "/events-gallery",
      "/consultation-services",
      "/sitemap.xml",
    ];
    for (const path of stockFree) expect(showsStock(path), path).toBe(false);
    const stockPages = ["/styled-collections", "/product/candy-earrings", "/tickets/sip-style"];
    // Every option with seats to count, so any page that would show seats shows them.
    await handle.db.execute(sql`update ticket_options set capacity = 5 where capacity is null`);
    const before = new Map<string, string>();
    for (const path of [...stockFree, ...stockPages]) before.set(path, await page(path));

    // Every limited piece at nought, every seat of every option (and of every session) sold.
    await handle.db.execute(sql`update catalog_items set stock_quantity = 0 where stock_quantity is not null`);
    const order = await anOrder();
    const { rows: options } = await rows<{ id: number }>(sql`select id from ticket_options`);
    const { rows: sessions } = await rows<{ starts_at: string | Date }>(sql`select starts_at from event_sessions`);
    for (const option of options) {
      await hold(order, `ticket:${option.id}`, 10_000, "converted");
      for (const session of sessions)
        await hold(order, sessionStockKey(option.id, new Date(session.starts_at)), 10_000, "converted");
    }

    for (const path of stockFree) expect(await page(path), path).toBe(before.get(path));
    // The sell-out did reach what the stock pages show.
    for (const path of stockPages) expect(await page(path), path).not.toBe(before.get(path));
  });
});
