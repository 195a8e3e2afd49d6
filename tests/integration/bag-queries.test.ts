import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { catalogItems, discountCodes, events, ticketOptions } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { bagBrowser } from "../support/bag";
import { buyer } from "../support/checkout";
import { countQueries } from "../support/query-count";
import { createTestDatabase } from "../support/test-db";

/**
 * The bag's speed (issue 39): the SQL statements one /bag view and one bag checkout send, for a bag
 * of 3 and of 10 lines, and how many times each waits on the database. Each kind of thing (catalog
 * items, product rows, ticket options, holds) is read once for the whole bag, so a longer bag costs
 * no more statements than a short one.
 */
const START = new Date("2025-09-10T10:00:00+02:00");
const engine = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";

let handle: DatabaseHandle;
const clock = fixedClock(START);
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

/** Everything a bag can hold from the seed: priced catalog items with and without a stock count, and seats. */
async function sellableRefs() {
  const items = await handle.db
    .select({ id: catalogItems.id, stock: catalogItems.stockQuantity })
    .from(catalogItems)
    .where(and(isNotNull(catalogItems.priceCents), eq(catalogItems.visible, true), eq(catalogItems.archived, false)));
  const options = await handle.db
    .select({ id: ticketOptions.id })
    .from(ticketOptions)
    .innerJoin(events, eq(events.id, ticketOptions.eventId))
    .where(and(eq(events.ticketsOnSale, true), eq(events.archived, false)));
  return [
    // Items with a stock count first: every bag, short or long, has each kind of lookup.
    ...items
      .filter((i) => i.stock === null || i.stock > 0)
      .sort((a, b) => Number(a.stock === null) - Number(b.stock === null))
      .map((i) => ({ kind: "catalog", id: i.id })),
    ...options.map((o) => ({ kind: "ticket", id: o.id })),
  ];
}

async function bagOf(lines: number, ip: string) {
  const browser = bagBrowser(handle, { clock, clientIp: ip });
  const refs = await sellableRefs();
  // Seats first, then catalog items and the other seats, skipping what is not on sale at the clock's time.
  const tickets = refs.filter((r) => r.kind === "ticket");
  const candidates = [...tickets, ...refs.filter((r) => r.kind === "catalog")];
  let added = 0;
  let seats = 0;
  for (const ref of candidates) {
    if (added === lines) break;
    if (ref.kind === "ticket" && seats === 2) continue;
    const answer = await browser.post({ intent: "add", kind: ref.kind, id: String(ref.id), quantity: "1" });
    if (answer.status >= 400) continue;
    added += 1;
    if (ref.kind === "ticket") seats += 1;
  }
  expect(added).toBe(lines);
  const view = await browser.view();
  expect(view.body.lines.filter((l: { problem: string | null }) => !l.problem)).toHaveLength(lines);
  return browser;
}

describe(`SQL statements per bag request (${engine})`, () => {
  it("a /bag view costs as many statements for 10 lines as for 3, and a checkout as many for 5 as for 3; a view waits twice", async () => {
    const counts: Record<string, number> = {};
    for (const [lines, ip] of [
      [3, "10.39.0.3"],
      [10, "10.39.0.10"],
    ] as const) {
      const browser = await bagOf(lines, ip);
      const viewed = await countQueries(handle.db, () => browser.view());
      if (process.env.BAG_QUERIES_SHOW) console.log(viewed.queries.map((q) => q.slice(0, 120)).join("\n"));
      counts[`view ${lines}`] = viewed.queries.length;
      counts[`view ${lines} rounds`] = viewed.rounds;
    }
    // One checkout holds at most MAX_HELD_UNITS_PER_CLIENT (5) units, so the longest bag that can check out has 5 lines.
    for (const [lines, ip] of [
      [3, "10.39.1.3"],
      [5, "10.39.1.5"],
    ] as const) {
      const browser = await bagOf(lines, ip);
      const checkout = await countQueries(handle.db, () => browser.checkout());
      expect(checkout.result, JSON.stringify(checkout.result).slice(0, 300)).toBeInstanceOf(Response);
      if (process.env.BAG_QUERIES_SHOW) console.log(checkout.queries.map((q) => q.slice(0, 120)).join("\n"));
      counts[`checkout ${lines}`] = checkout.queries.length;
      counts[`checkout ${lines} rounds`] = checkout.rounds;
    }
    console.log(`[bag-queries] ${engine}: ${JSON.stringify(counts)}`);
    expect(Object.keys(counts)).toHaveLength(8);
    expect(counts["view 10"]).toBe(counts["view 3"]);
    expect(counts["checkout 5"]).toBe(counts["checkout 3"]);
    // Waits on the database: the bag with its lines' rows, then the units held (3 before the rows were
    // read by the bag's id); a checkout then holds, and makes the provider's checkout.
    expect(counts["view 3 rounds"]).toBeLessThanOrEqual(2);
    expect(counts["view 10 rounds"]).toBeLessThanOrEqual(2);
    expect(counts["checkout 3 rounds"]).toBeLessThanOrEqual(5);
  });
});

describe(`a new bag's first line (${engine})`, () => {
  it("stores the bag and its line in one statement, after the one read of the item", async () => {
    const [ref] = await sellableRefs();
    const browser = bagBrowser(handle, { clock, clientIp: "10.39.3.1" });
    const added = await countQueries(handle.db, () =>
      browser.post({ intent: "add", kind: ref!.kind, id: String(ref!.id), quantity: "1" }),
    );
    expect(added.result.status).toBeLessThan(400);
    const writes = added.queries.filter((q) => /^\s*(with|insert|update|delete)\b/i.test(q));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/insert into "bags"/);
    expect(writes[0]).toMatch(/insert into "bag_lines"/);
    const view = await browser.view();
    expect(view.body.lines).toHaveLength(1);
    expect(view.body.lines[0].quantity).toBe(1);
  });
});

describe(`a bag checkout's order and holds in one statement (${engine}, decision 142)`, () => {
  it("without perks or a code: one statement takes the locks, counts, and stores the order, its lines and holds", async () => {
    const browser = await bagOf(3, "10.39.2.4");
    const { queries } = await countQueries(handle.db, () => browser.checkout());
    const stored = queries.filter((q) => /counted_holds_counts\(/.test(q));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatch(/insert into "orders"/);
    expect(stored[0]).toMatch(/insert into "order_lines"/);
    expect(stored[0]).toMatch(/insert into "stock_holds"/);
    // No transaction, and no lock or hold sent on its own.
    expect(queries.filter((q) => /^(begin|commit)/i.test(q) || /pg_advisory_xact_lock/.test(q))).toEqual([]);
    expect(queries.filter((q) => /^insert into "stock_holds"/.test(q))).toEqual([]);
  });
});

describe(`the order a bag checkout's statements are sent in (${engine}, decision 141)`, () => {
  it("with a code (a transaction): the locks first, every count after them, then the holds", async () => {
    await handle.db
      .insert(discountCodes)
      .values({ code: "BAGQUERIES", kind: "percent", amount: 10, scope: "everything" });
    const browser = await bagOf(3, "10.39.2.3");
    const fields: [string, string][] = [...Object.entries(buyer), ["discountCode", "BAGQUERIES"]];
    const { queries } = await countQueries(handle.db, () => browser.checkout(undefined, fields));
    if (process.env.BAG_QUERIES_SHOW) console.log(queries.map((q) => q.slice(0, 140)).join("\n"));
    const at = (pattern: RegExp) => queries.findIndex((q) => pattern.test(q));
    const orderStored = at(/^insert into "orders"/);
    const clientLock = at(/pg_advisory_xact_lock\(hashtext\(\$1\)\)/);
    const keysLock = at(/pg_advisory_xact_lock\(hashtext\(k\)\)/);
    const holdsStored = at(/^insert into "stock_holds"/);
    expect(orderStored).toBeGreaterThanOrEqual(0);
    expect(clientLock).toBeGreaterThan(orderStored);
    expect(keysLock).toBe(clientLock + 1);
    // Between the locks and the holds: only reads, the units in stock, the client's budget and the units held.
    const counts = queries.slice(keysLock + 1, holdsStored);
    expect(counts.every((q) => q.startsWith("select"))).toBe(true);
    expect(counts.filter((q) => /"stock_holds"."client_key" = /.test(q))).toHaveLength(1);
    expect(counts.filter((q) => /"stock_holds"."stock_key" in /.test(q))).toHaveLength(1);
    expect(counts.filter((q) => /"stock_quantity" from "catalog_items"/.test(q)).length).toBeGreaterThanOrEqual(1);
  });
});
