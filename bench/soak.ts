// npm run soak: mixed traffic against the production build (fresh PGlite data folder) on 127.0.0.1:
// page views, analytics beacons, contact messages and checkouts paid on the simulator, from
// SOAK_CONNECTIONS concurrent clients for SOAK_SECONDS. Then, with the server stopped, it counts
// what the database holds: every accepted message and event stored, no order lost or counted twice,
// stock down by exactly the units paid for. A share of the clients are bag users (issue 39): each visit adds
// two or three lines (products and a workshop seat) to a bag, views /bag, checks the bag out and pays, its
// requests counted in a row of their own. Exits non-zero on any 5xx or any mismatch, or on a
// missed latency or memory target (issue 22) unless SOAK_TIMING=advisory (CI, a shared machine).
//   SOAK_SECONDS=60 (CI runs 15; 600 for the memory row)   SOAK_CONNECTIONS=100
//   SOAK_BAG_SHARE=0.2   the share of the clients that use a bag (0 leaves the bag out)
//   SOAK_PG_URL=postgres://…   the same against a fresh database on that PostgreSQL server
//   SOAK_TRACE=/tmp/trace.tsv   every request (kind, start ms, latency ms, method and path, status), to see when the slow ones came
import { PGlite } from "@electric-sql/pglite";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { freshPostgresDatabase } from "./lib/postgres";
import { bagVisit, findBagItems, type BagSend } from "./lib/bag-visitor";
import { benchRequest, type BenchRequest, type BenchResponse } from "./lib/http-client";
import { markdownTable, readCpuSeconds, readRssMb, startBuiltServer, visitorAddress, writeResults } from "./lib/server";

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 100);
const PG_URL = process.env.SOAK_PG_URL;
const TIMING_ADVISORY = process.env.SOAK_TIMING === "advisory";
const BAG_SHARE = Number(process.env.SOAK_BAG_SHARE ?? 0.2);
if (!(BAG_SHARE >= 0 && BAG_SHARE <= 1)) throw new Error("SOAK_BAG_SHARE is a share from 0 to 1");
const BAG_CLIENTS = Math.round(CONNECTIONS * BAG_SHARE);
/** Issue 22's targets: p99 of every write and of pages, per engine. */
const TARGETS = PG_URL ? { writeP99Ms: 250, pageP99Ms: 200 } : { writeP99Ms: 500, pageP99Ms: 200 };
/** The memory row needs a long run: RSS in the first minute after warm-up against the last, within 10%. */
const MEMORY_MIN_SECONDS = 300;
const WARM_UP_SECONDS = 60;
/** Issue 43: the first seconds after a start meet the same targets as later (the load begins as the server is up). */
const FIRST_SECONDS = 30;
/** Issue 43's bounds on PGlite (a 1 GB machine), issue 22's on PostgreSQL. */
const MEMORY = PG_URL ? { peakMb: 200, flat: 0.1 } : { peakMb: 512, flat: 0.05 };
/** The memory row compares the mean RSS of the first and the last this many seconds after warm-up. */
const RSS_WINDOW_SECONDS = 60;
const UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
const PAGES = [
  "/",
  "/styled-collections",
  "/consultation-services",
  "/product/candy-earrings",
  "/events",
  "/tickets/sip-style",
  "/blog",
  "/events-gallery",
  "/about",
  "/contact",
];
/** A product with unlimited stock and one with limited stock: both kinds of order under load. */
/** The spec's limited stock for candy earrings, as seeded into the fresh database. */
const CANDY_STOCK = 10;
const CHECKOUT_ITEMS = [
  { type: "product", item: "Test Product", slug: "test-product" },
  { type: "product", item: "Candy Earrings", slug: "candy-earrings" },
];

type Kind = "page" | "analytics" | "contact" | "checkout" | "bag";
interface Tally {
  requests: number;
  ok: number;
  refused: number;
  serverErrors: number;
  networkErrors: number;
  latencies: number[];
  /** Latencies of the requests sent in the first FIRST_SECONDS of the load, seconds after the server started. */
  early: number[];
}
const tallies = new Map<Kind, Tally>();
const tally = (kind: Kind) => {
  let t = tallies.get(kind);
  if (!t)
    tallies.set(
      kind,
      (t = { requests: 0, ok: 0, refused: 0, serverErrors: 0, networkErrors: 0, latencies: [], early: [] }),
    );
  return t;
};
const serverErrorSamples: string[] = [];
let contactsAccepted = 0;
let eventsAccepted = 0;
const ordersPaid = new Map<string, number>();
const bagOutcomes = { paid: 0, refused: 0, failed: 0 };

const scratch = PG_URL ? await freshPostgresDatabase(PG_URL, "soak") : undefined;
const databaseUrl = scratch?.url;
const engine = databaseUrl ? "PostgreSQL" : "PGlite";
/** How the app reaches PostgreSQL: the README recommends the Unix socket on one host (decision 098). */
const pgLink = PG_URL
  ? new URL(PG_URL).searchParams.get("host")?.startsWith("/")
    ? " over its Unix socket"
    : " over TCP"
  : "";

const app = await startBuiltServer({ STOCK_HOLD_MINUTES: "15", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
const base = app.base;
/** The server's RSS every 5 s: [seconds since the load began, MB]. */
const rssSamples: [number, number][] = [];
let clientCounter = 0;
/**
 * SOAK_TRACE=file: every request as kind, start (ms into the load), latency (ms), method and path, status, to see
 * when the slow ones happened.
 */
const trace: string[] | undefined = process.env.SOAK_TRACE ? [] : undefined;
let loadStartedAt = performance.now();

async function timed(kind: Kind, url: string, init: BenchRequest = {}): Promise<BenchResponse | undefined> {
  const t = tally(kind);
  t.requests++;
  const started = performance.now();
  try {
    const response = await benchRequest(url, { ...init, headers: { "User-Agent": UA, ...init.headers } });
    t.latencies.push(performance.now() - started);
    if (started - loadStartedAt < FIRST_SECONDS * 1000) t.early.push(performance.now() - started);
    const request = `${init.method ?? "GET"} ${url.replace(base, "")}`;
    trace?.push(
      `${kind}\t${Math.round(started - loadStartedAt)}\t${Math.round(performance.now() - started)}\t${request}\t${response.status}`,
    );
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

const form = (fields: Record<string, string>, ip: string) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, "X-Forwarded-For": ip },
  body: new URLSearchParams(fields).toString(),
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
    body: JSON.stringify({
      eventType: "page_view",
      pagePath: "/soak",
      itemName: null,
      sessionId: randomUUID(),
      referrer: null,
      metadata: null,
    }),
  });
  if (response?.status === 204) eventsAccepted++;
}

/**
 * The form posted as a browser without JavaScript posts it: the answer is to be the page (Fetch
 * Metadata), and the browser follows the redirect to the page that says the message was sent
 * (decision 096). The latency counts both requests.
 */
async function contact() {
  // Each message from its own address: the per-visitor limit is not what this measures.
  const n = clientCounter++;
  const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  const posted = form(
    {
      firstName: "Soak",
      lastName: `Tester ${n}`,
      email: `soak${n}@example.com`,
      subject: "Soak test",
      message: `Message ${n}`,
    },
    ip,
  );
  const response = await timed("contact", `${base}/contact`, {
    ...posted,
    headers: { ...posted.headers, Accept: "text/html", "Sec-Fetch-Dest": "document" },
    follow: true,
  });
  if (response?.status === 200 && response.redirected && response.url.endsWith("/contact?sent=1")) contactsAccepted++;
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
    form(
      {
        type: pick.type,
        item: pick.item,
        firstName: "Soak",
        lastName: `Buyer ${n}`,
        email: `buyer${n}@example.com`,
        phone: "0821234567",
        address: "1 Long Street\nCape Town",
      },
      ip,
    ),
  );
  const location = created?.headers.location;
  if (!created || created.status !== 302 || !location) return; // sold out or refused: nothing to pay
  // The payment page's address is built from SITE_URL; ask this server for its path.
  const payPage = new URL(new URL(location, base).pathname, base);
  const paid = await timed("checkout", payPage.toString(), form({ intent: "pay" }, ip));
  if (paid && paid.status >= 300 && paid.status < 400 && /status=success/.test(paid.headers.location ?? "")) {
    ordersPaid.set(pick.slug, (ordersPaid.get(pick.slug) ?? 0) + 1);
  }
}

// The bag's requests, every step of a visit, in the "bag" row.
const sendBag: BagSend = async (_step, url, request) => {
  const response = await timed("bag", url, request);
  return (
    response && {
      status: response.status,
      location: response.headers.location ?? null,
      setCookie: response.headers["set-cookie"] ?? [],
    }
  );
};
const bagItems = BAG_CLIENTS ? await findBagItems(base) : { products: [], seat: null };
let bagVisits = 0;
async function bagUser() {
  const n = bagVisits++;
  bagOutcomes[await bagVisit(sendBag, base, bagItems, n, `10.202.${(n >> 8) & 255}.${n & 255}`)]++;
}

function pickAction(): () => Promise<void> {
  const r = Math.random();
  if (r < 0.5) return pageView;
  if (r < 0.8) return beacon;
  if (r < 0.9) return contact;
  return checkout;
}

console.log(
  `soak: ${CONNECTIONS} clients (${BAG_CLIENTS} of them with a bag) for ${SECONDS} s against ${base} (${engine})`,
);
const loadStarted = Date.now();
loadStartedAt = performance.now();
const deadline = loadStarted + SECONDS * 1000;
const rssAtRest = readRssMb(app.process.pid!);
const serverCpuBefore = readCpuSeconds(app.process.pid!);
const clientCpuBefore = process.cpuUsage();
const sampler = setInterval(
  () => rssSamples.push([Math.round((Date.now() - loadStarted) / 1000), readRssMb(app.process.pid!)]),
  5_000,
);
await Promise.all(
  Array.from({ length: CONNECTIONS }, async (_, client) => {
    const action = client < BAG_CLIENTS ? () => bagUser : pickAction;
    while (Date.now() < deadline) await action()();
  }),
);
clearInterval(sampler);
if (trace) fs.writeFileSync(process.env.SOAK_TRACE!, `${trace.join("\n")}\n`);
const rssAfterLoad = readRssMb(app.process.pid!);
const loadSeconds = (Date.now() - loadStarted) / 1000;
const serverCpu = Math.round((100 * (readCpuSeconds(app.process.pid!) - serverCpuBefore)) / loadSeconds);
const clientUsage = process.cpuUsage(clientCpuBefore);
const clientCpu = Math.round((clientUsage.user + clientUsage.system) / 1e4 / loadSeconds);
await app.stop();

// With the server stopped, the database belongs to us: count what it holds.
const db = databaseUrl
  ? new pg.Client({ connectionString: databaseUrl })
  : new PGlite(path.join(app.dataDir, "pglite"));
if (db instanceof pg.Client) await db.connect();
const rowsOf = async (query: string, params: unknown[]) =>
  db instanceof pg.Client ? (await db.query(query, params)).rows : (await db.query(query, params)).rows;
const one = async (query: string, params: unknown[] = []) =>
  Number(((await rowsOf(query, params))[0] as { n?: number } | undefined)?.n ?? 0);
const storedContacts = await one("select count(*)::int as n from contact_submissions where subject = 'Soak test'");
const storedEvents = await one("select count(*)::int as n from analytics_events where page_path = '/soak'");
const paidOrders = await one("select count(*)::int as n from orders where status = 'paid'");
const paidExpected = [...ordersPaid.values()].reduce((a, b) => a + b, 0) + bagOutcomes.paid;
const paidBagOrders = await one(
  "select count(*)::int as n from orders o where o.status = 'paid' and " +
    "(select count(*) from order_lines l where l.order_id = o.id) >= 2",
);
const candyStock = await one("select stock_quantity as n from catalog_items where slug = 'candy-earrings'");
const candyHeldOrPaid = await one(
  "select count(*)::int as n from stock_holds h join catalog_items c on h.stock_key = 'catalog:' || c.id " +
    "where c.slug = 'candy-earrings' and h.status = 'converted'",
);
const duplicateHolds = await one(
  "select count(*)::int as n from (select order_id, stock_key from stock_holds group by 1, 2 having count(*) > 1) d",
);
await (db instanceof pg.Client ? db.end() : db.close());

const percentile = (values: number[], p: number) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
};
const all = [...tallies.values()];
const totalServerErrors = all.reduce((n, t) => n + t.serverErrors + t.networkErrors, 0);
const rows: (string | number)[][] = [...tallies.entries()].map(([kind, t]) => [
  kind,
  t.requests,
  t.ok,
  t.refused,
  t.serverErrors + t.networkErrors,
  percentile(t.latencies, 50),
  percentile(t.latencies, 99),
]);
const allLatencies = all.flatMap((t) => t.latencies);
rows.push([
  "all",
  all.reduce((n, t) => n + t.requests, 0),
  all.reduce((n, t) => n + t.ok, 0),
  all.reduce((n, t) => n + t.refused, 0),
  totalServerErrors,
  percentile(allLatencies, 50),
  percentile(allLatencies, 99),
]);

const checks = [
  { name: "no 5xx and no network errors", ok: totalServerErrors === 0, value: `${totalServerErrors}` },
  {
    name: "every accepted contact message stored",
    ok: storedContacts === contactsAccepted,
    value: `${storedContacts} stored / ${contactsAccepted} accepted`,
  },
  {
    name: "every accepted analytics event stored",
    ok: storedEvents === eventsAccepted,
    value: `${storedEvents} stored / ${eventsAccepted} accepted`,
  },
  {
    name: "every paid checkout is one paid order",
    ok: paidOrders === paidExpected,
    value: `${paidOrders} paid orders / ${paidExpected} payments`,
  },
  {
    name: "limited stock: sold units = converted holds = stock taken, never oversold",
    ok:
      candyHeldOrPaid === (ordersPaid.get("candy-earrings") ?? 0) &&
      candyStock === CANDY_STOCK - candyHeldOrPaid &&
      candyStock >= 0,
    value: `${ordersPaid.get("candy-earrings") ?? 0} sold, ${candyHeldOrPaid} converted holds, ${candyStock} left`,
  },
  { name: "no order holds the same stock twice", ok: duplicateHolds === 0, value: `${duplicateHolds}` },
  ...(BAG_CLIENTS
    ? [
        {
          name: "every paid bag is one paid order of its two or three lines",
          ok: paidBagOrders === bagOutcomes.paid && bagOutcomes.failed === 0,
          value:
            `${paidBagOrders} paid orders of several lines / ${bagOutcomes.paid} bags paid ` +
            `(${bagOutcomes.refused} refused, ${bagOutcomes.failed} failed)`,
        },
      ]
    : []),
];

// Issue 22's targets. On a shared machine (CI) a miss is reported as advisory and fails nothing.
const p99 = (kind: Kind) => percentile(tallies.get(kind)?.latencies ?? [], 99);
const timing = (name: string, measured: number, limit: number) => ({
  name: `${name} p99 < ${limit} ms`,
  ok: measured < limit,
  value: `${measured} ms`,
  advisory: TIMING_ADVISORY,
});
const targets: { name: string; ok: boolean; value: string; advisory?: boolean }[] = [
  ...(["contact", "checkout", "analytics"] as const).map((kind) =>
    timing(`write: ${kind}`, p99(kind), TARGETS.writeP99Ms),
  ),
  // A bag visit writes on every step but the view (decision 126): the writes' target covers all its requests.
  ...(BAG_CLIENTS ? [timing("bag (issue 39): add, view, checkout and pay", p99("bag"), TARGETS.writeP99Ms)] : []),
  timing("pages", p99("page"), TARGETS.pageP99Ms),
];
if (SECONDS > FIRST_SECONDS) {
  // The writes as the writes' row counts them; the bag's visits have their own row and target (issue 39).
  const early = (kinds: Kind[]) =>
    percentile(
      kinds.flatMap((kind) => tallies.get(kind)?.early ?? []),
      99,
    );
  targets.push(
    timing(
      `first ${FIRST_SECONDS} s after the start (issue 43): writes`,
      early(["contact", "checkout", "analytics"]),
      TARGETS.writeP99Ms,
    ),
    timing(`first ${FIRST_SECONDS} s after the start (issue 43): pages`, early(["page"]), TARGETS.pageP99Ms),
  );
}
const rssPeak = Math.max(rssAtRest, rssAfterLoad, ...rssSamples.map(([, mb]) => mb));
targets.push({
  name: `${engine}: RSS under load ≤ ${MEMORY.peakMb} MB (${databaseUrl ? "issue 22" : "issue 43"})`,
  ok: rssPeak <= MEMORY.peakMb,
  value: `peak ${rssPeak} MB`,
  advisory: TIMING_ADVISORY,
});
const warm = rssSamples.filter(([at]) => at >= WARM_UP_SECONDS);
if (SECONDS >= MEMORY_MIN_SECONDS && warm.length >= 2) {
  // The first minute after warm-up against the last, each as its mean: the heap ceiling lets RSS swing
  // by a tenth between two collections, so two single samples can differ by that much with no leak,
  // while a leak moves the whole minute (decision 101).
  const lastAt = warm[warm.length - 1]![0];
  const mean = (samples: [number, number][]) => samples.reduce((sum, [, mb]) => sum + mb, 0) / samples.length;
  const first = mean(warm.filter(([at]) => at < WARM_UP_SECONDS + RSS_WINDOW_SECONDS));
  const last = mean(warm.filter(([at]) => at > lastAt - RSS_WINDOW_SECONDS));
  const growth = (last - first) / first;
  const mb = (value: number) => `${value.toFixed(1)} MB`;
  targets.push({
    name: `RSS flat after ${WARM_UP_SECONDS} s of warm-up (within ${MEMORY.flat * 100}%, the second minute's mean against the last's)`,
    ok: Math.abs(growth) <= MEMORY.flat,
    value:
      `${mb(first)} then ${mb(last)} (${growth >= 0 ? "+" : ""}${(growth * 100).toFixed(1)}%); ` +
      `single samples ${warm[0]![1]} MB at ${WARM_UP_SECONDS} s, ${warm[warm.length - 1]![1]} MB at the end; ` +
      `peak ${Math.max(...warm.map(([, v]) => v))} MB`,
    advisory: TIMING_ADVISORY,
  });
}

const table = markdownTable(["traffic", "requests", "2xx/3xx", "4xx", "5xx or network", "p50 ms", "p99 ms"], rows);
const result = (c: { ok: boolean; advisory?: boolean }) => (c.ok ? "ok" : c.advisory ? "missed (advisory)" : "FAILED");
const checkTable = markdownTable(
  ["check", "measured", "result"],
  checks.map((c) => [c.name, c.value, result(c)]),
);
const targetTable = markdownTable(
  ["target (issues 22 and 43)", "measured", "result"],
  targets.map((c) => [c.name, c.value, result(c)]),
);
const summary =
  `${CONNECTIONS} concurrent clients (${BAG_CLIENTS} of them bag users) for ${SECONDS} s on ${engine}${pgLink}, ` +
  `Node ${process.version}, 2 cores (the load generator shares them). ` +
  `CPU during the load: server ${serverCpu}%, load generator ${clientCpu}% (of one core; 200% is both). ` +
  `Server RSS: ${rssAtRest} MB before the load, ${rssAfterLoad} MB after it` +
  (rssSamples.length ? `; every 5 s: ${rssSamples.map(([, mb]) => mb).join(", ")} MB.` : ".");
const markdown = `# Soak on ${engine} (${new Date().toISOString()})\n\n${table}\n\n${checkTable}\n\n${targetTable}\n\n${summary}\n`;
const name = `soak-${SECONDS}s${databaseUrl ? "-postgres" : ""}`;
writeResults(
  name,
  {
    at: new Date().toISOString(),
    engine,
    seconds: SECONDS,
    connections: CONNECTIONS,
    bagClients: BAG_CLIENTS,
    bagOutcomes,
    rows,
    checks,
    targets,
    rssAtRest,
    rssAfterLoad,
    rssSamples,
    serverErrorSamples,
  },
  markdown,
);
console.log(`\n${table}\n\n${checkTable}\n\n${targetTable}\n\n${summary}`);
if (serverErrorSamples.length) console.log(`first errors:\n  ${serverErrorSamples.join("\n  ")}`);
const all2 = [...checks, ...targets];
const failed = all2.filter((c) => !c.ok && !("advisory" in c && c.advisory)).length;
for (const c of targets) if (!c.ok && c.advisory) console.log(`soak target missed (advisory): ${c.name}: ${c.value}`);
console.log(`soak: ${all2.length - failed} passed, ${failed} failed`);
await scratch?.drop().catch((error: Error) => console.error(`could not drop the soak database: ${error.message}`));
process.exit(failed ? 1 : 0);
