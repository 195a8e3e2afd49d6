// npm run soak: mixed traffic against the production build (fresh PGlite data folder) on 127.0.0.1:
// page views, analytics beacons, contact messages and checkouts paid on the simulator, from
// SOAK_CONNECTIONS concurrent clients for SOAK_SECONDS. Then, with the server stopped, it counts
// what the database holds: every accepted message and event stored, no order lost or counted twice,
// stock down by exactly the units paid for. Exits non-zero on any 5xx or any mismatch.
//   SOAK_SECONDS=60 (CI runs 15)   SOAK_CONNECTIONS=100
import { PGlite } from "@electric-sql/pglite";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { markdownTable, startBuiltServer, visitorAddress, writeResults } from "./lib/server";

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 100);
const UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
const PAGES = ["/", "/styled-collections", "/consultation-services", "/product/candy-earrings", "/events", "/tickets/sip-style", "/blog", "/events-gallery", "/about", "/contact"];
/** A product with unlimited stock and one with limited stock: both kinds of order under load. */
/** The spec's limited stock for candy earrings, as seeded into the fresh database. */
const CANDY_STOCK = 10;
const CHECKOUT_ITEMS = [
  { type: "product", item: "Test Product", slug: "test-product" },
  { type: "product", item: "Candy Earrings", slug: "candy-earrings" },
];

type Kind = "page" | "analytics" | "contact" | "checkout";
interface Tally {
  requests: number;
  ok: number;
  refused: number;
  serverErrors: number;
  networkErrors: number;
  latencies: number[];
}
const tallies = new Map<Kind, Tally>();
const tally = (kind: Kind) => {
  let t = tallies.get(kind);
  if (!t) tallies.set(kind, (t = { requests: 0, ok: 0, refused: 0, serverErrors: 0, networkErrors: 0, latencies: [] }));
  return t;
};
const serverErrorSamples: string[] = [];
let contactsAccepted = 0;
let eventsAccepted = 0;
const ordersPaid = new Map<string, number>();

const app = await startBuiltServer({ STOCK_HOLD_MINUTES: "15" });
const base = app.base;
let clientCounter = 0;

async function timed(kind: Kind, url: string, init: RequestInit = {}): Promise<Response | undefined> {
  const t = tally(kind);
  t.requests++;
  const started = performance.now();
  try {
    const response = await fetch(url, { redirect: "manual", ...init, headers: { "User-Agent": UA, ...init.headers } });
    await response.arrayBuffer();
    t.latencies.push(performance.now() - started);
    if (response.status >= 500) {
      t.serverErrors++;
      if (serverErrorSamples.length < 10) serverErrorSamples.push(`${response.status} ${init.method ?? "GET"} ${url}`);
    } else if (response.status >= 400) t.refused++;
    else t.ok++;
    return response;
  } catch (error) {
    t.networkErrors++;
    if (serverErrorSamples.length < 10) serverErrorSamples.push(`network ${url}: ${(error as Error).message}`);
    return undefined;
  }
}

const form = (fields: Record<string, string>, ip: string): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, "X-Forwarded-For": ip },
  body: new URLSearchParams(fields),
});

async function pageView() {
  await timed("page", `${base}${PAGES[Math.floor(Math.random() * PAGES.length)]}`);
}

let beacons = 0;
async function beacon() {
  // Ten events per visitor address, as visitors behind the proxy arrive (one address has a budget).
  const ip = visitorAddress(Math.floor(beacons++ / 10));
  const response = await timed("analytics", `${base}/api/analytics`, {
    method: "POST",
    headers: { "Content-Type": "text/plain;charset=UTF-8", "X-Forwarded-For": ip },
    body: JSON.stringify({ eventType: "page_view", pagePath: "/soak", itemName: null, sessionId: randomUUID(), referrer: null, metadata: null }),
  });
  if (response?.status === 204) eventsAccepted++;
}

async function contact() {
  // Each message from its own address: the per-visitor limit is not what this measures.
  const n = clientCounter++;
  const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  const response = await timed(
    "contact",
    `${base}/contact`,
    form({ firstName: "Soak", lastName: `Tester ${n}`, email: `soak${n}@example.com`, subject: "Soak test", message: `Message ${n}` }, ip),
  );
  if (response?.status === 200) contactsAccepted++;
}

/** Order on the checkout form, follow the redirect to the simulator, and pay. */
async function checkout() {
  const n = clientCounter++;
  const ip = `10.200.${(n >> 8) & 255}.${n & 255}`;
  const pick = CHECKOUT_ITEMS[n % CHECKOUT_ITEMS.length]!;
  const query = new URLSearchParams({ type: pick.type, item: pick.item });
  const created = await timed(
    "checkout",
    `${base}/checkout?${query}`,
    form({ type: pick.type, item: pick.item, firstName: "Soak", lastName: `Buyer ${n}`, email: `buyer${n}@example.com`, phone: "0821234567", address: "1 Long Street\nCape Town" }, ip),
  );
  const location = created?.headers.get("location");
  if (!created || created.status !== 302 || !location) return; // sold out or refused: nothing to pay
  // The payment page's address is built from SITE_URL; ask this server for its path.
  const payPage = new URL(new URL(location, base).pathname, base);
  const paid = await timed("checkout", payPage.toString(), form({ intent: "pay" }, ip));
  if (paid && paid.status >= 300 && paid.status < 400 && /status=success/.test(paid.headers.get("location") ?? "")) {
    ordersPaid.set(pick.slug, (ordersPaid.get(pick.slug) ?? 0) + 1);
  }
}

function pickAction(): () => Promise<void> {
  const r = Math.random();
  if (r < 0.5) return pageView;
  if (r < 0.8) return beacon;
  if (r < 0.9) return contact;
  return checkout;
}

console.log(`soak: ${CONNECTIONS} clients for ${SECONDS} s against ${base}`);
const deadline = Date.now() + SECONDS * 1000;
await Promise.all(
  Array.from({ length: CONNECTIONS }, async () => {
    while (Date.now() < deadline) await pickAction()();
  }),
);
await app.stop();

// With the server stopped, the database belongs to us: count what it holds.
const db = new PGlite(path.join(app.dataDir, "pglite"));
const one = async (query: string, params: unknown[] = []) => Number((await db.query<{ n: number }>(query, params)).rows[0]?.n ?? 0);
const storedContacts = await one("select count(*)::int as n from contact_submissions where subject = 'Soak test'");
const storedEvents = await one("select count(*)::int as n from analytics_events where page_path = '/soak'");
const paidOrders = await one("select count(*)::int as n from orders where status = 'paid'");
const paidExpected = [...ordersPaid.values()].reduce((a, b) => a + b, 0);
const candyStock = await one("select stock_quantity as n from catalog_items where slug = 'candy-earrings'");
const candyHeldOrPaid = await one(
  "select count(*)::int as n from stock_holds h join catalog_items c on h.stock_key = 'catalog:' || c.id where c.slug = 'candy-earrings' and h.status = 'converted'",
);
const duplicateHolds = await one(
  "select count(*)::int as n from (select order_id, stock_key from stock_holds group by 1, 2 having count(*) > 1) d",
);
await db.close();

const percentile = (values: number[], p: number) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
};
const all = [...tallies.values()];
const totalServerErrors = all.reduce((n, t) => n + t.serverErrors + t.networkErrors, 0);
const rows: (string | number)[][] = [...tallies.entries()].map(([kind, t]) => [kind, t.requests, t.ok, t.refused, t.serverErrors + t.networkErrors, percentile(t.latencies, 50), percentile(t.latencies, 99)]);
const allLatencies = all.flatMap((t) => t.latencies);
rows.push(["all", all.reduce((n, t) => n + t.requests, 0), all.reduce((n, t) => n + t.ok, 0), all.reduce((n, t) => n + t.refused, 0), totalServerErrors, percentile(allLatencies, 50), percentile(allLatencies, 99)]);

const checks = [
  { name: "no 5xx and no network errors", ok: totalServerErrors === 0, value: `${totalServerErrors}` },
  { name: "every accepted contact message stored", ok: storedContacts === contactsAccepted, value: `${storedContacts} stored / ${contactsAccepted} accepted` },
  { name: "every accepted analytics event stored", ok: storedEvents === eventsAccepted, value: `${storedEvents} stored / ${eventsAccepted} accepted` },
  { name: "every paid checkout is one paid order", ok: paidOrders === paidExpected, value: `${paidOrders} paid orders / ${paidExpected} payments` },
  {
    name: "limited stock: sold units = converted holds = stock taken, never oversold",
    ok: candyHeldOrPaid === (ordersPaid.get("candy-earrings") ?? 0) && candyStock === CANDY_STOCK - candyHeldOrPaid && candyStock >= 0,
    value: `${ordersPaid.get("candy-earrings") ?? 0} sold, ${candyHeldOrPaid} converted holds, ${candyStock} left`,
  },
  { name: "no order holds the same stock twice", ok: duplicateHolds === 0, value: `${duplicateHolds}` },
];

const table = markdownTable(["traffic", "requests", "2xx/3xx", "4xx", "5xx or network", "p50 ms", "p99 ms"], rows);
const checkTable = markdownTable(["check", "measured", "result"], checks.map((c) => [c.name, c.value, c.ok ? "ok" : "FAILED"]));
const summary = `${CONNECTIONS} concurrent clients for ${SECONDS} s, Node ${process.version}, 2 cores.`;
const markdown = `# Soak (${new Date().toISOString()})\n\n${table}\n\n${checkTable}\n\n${summary}\n`;
writeResults(`soak-${SECONDS}s`, { at: new Date().toISOString(), seconds: SECONDS, connections: CONNECTIONS, rows, checks, serverErrorSamples }, markdown);
console.log(`\n${table}\n\n${checkTable}\n\n${summary}`);
if (serverErrorSamples.length) console.log(`first errors:\n  ${serverErrorSamples.join("\n  ")}`);
const failed = checks.filter((c) => !c.ok).length;
console.log(`soak: ${checks.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
