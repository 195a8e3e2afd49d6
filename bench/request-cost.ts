// npm run bench:cost: what each kind of request costs the server, one kind at a time, against the
// production build (fresh PGlite data folder) on 127.0.0.1. For each kind, COST_CLIENTS clients send
// it back to back for COST_SECONDS after a warm-up round of the same length; the server's CPU (every
// thread, from /proc) divided by the requests answered is its cost. The soak mixes these kinds; this
// says which of them the server's time goes to (decision 096).
//   COST_SECONDS=6   COST_CLIENTS=20   COST_PG_URL=postgres://…  (a fresh database on that server)
import { randomUUID } from "node:crypto";
import { bagLinesFor, bagVisit, findBagItems, type BagItems, type BagSend } from "./lib/bag-visitor";
import { freshPostgresDatabase } from "./lib/postgres";
import { markdownTable, readCpuSeconds, startBuiltServer, visitorAddress, writeResults } from "./lib/server";

const SECONDS = Number(process.env.COST_SECONDS ?? 6);
const CLIENTS = Number(process.env.COST_CLIENTS ?? 20);
const PG_URL = process.env.COST_PG_URL;
/** COST_ONLY=checkout: only the kinds whose name contains it (to profile one). */
const ONLY = process.env.COST_ONLY;
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

const scratch = PG_URL ? await freshPostgresDatabase(PG_URL, "cost") : undefined;
const databaseUrl = scratch?.url;
const engine = databaseUrl ? "PostgreSQL" : "PGlite";
const app = await startBuiltServer({ STOCK_HOLD_MINUTES: "15", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
const base = app.base;

let n = 0;
/** Each message and order from its own address: the per-visitor limits are not what this measures. */
const nextAddress = () => visitorAddress(n++);
const send = async (url: string, init: RequestInit = {}) => {
  const response = await fetch(url, { redirect: "manual", ...init, headers: { "User-Agent": UA, ...init.headers } });
  await response.arrayBuffer();
  if (response.status >= 400)
    throw new Error(`${init.method ?? "GET"} ${url.replace(base, "")} answered ${response.status}`);
  return response;
};
const form = (fields: Record<string, string>, ip: string, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, "X-Forwarded-For": ip, ...headers },
  body: new URLSearchParams(fields),
});
const message = (i: number) => ({
  firstName: "Cost",
  lastName: `Tester ${i}`,
  email: `cost${i}@example.com`,
  subject: "Cost",
  message: `Message ${i}`,
});

/** The bag's kinds (issue 39): the ids its forms post, read once from the pages. */
let bagItemsFound: BagItems | undefined;
const bagItems = async () => (bagItemsFound ??= await findBagItems(base));
const bagSend: BagSend = async (_step, url, request) => {
  const response = await fetch(url, {
    redirect: "manual",
    method: request.method,
    headers: { "User-Agent": UA, ...request.headers },
    body: request.body,
  });
  await response.arrayBuffer();
  if (response.status >= 500) throw new Error(`${request.method} ${url.replace(base, "")} answered ${response.status}`);
  return {
    status: response.status,
    location: response.headers.get("location"),
    setCookie: response.headers.getSetCookie(),
  };
};
/** Bags of three lines, one per client slot, made on first use and then only viewed. */
const viewedBags: Promise<string>[] = [];
async function bagOfThree(slot: number): Promise<string> {
  const items = await bagItems();
  let cookie = "";
  for (const line of bagLinesFor(items, 0)) {
    const added = await send(
      `${base}/bag`,
      form(
        { intent: "add", kind: line.kind, id: String(line.id), quantity: String(line.quantity) },
        visitorAddress(90_000 + slot),
        cookie ? { Cookie: cookie } : {},
      ),
    );
    const set = added.headers.getSetCookie().map((c) => c.split(";", 1)[0]!);
    if (set.length) cookie = set.join("; ");
  }
  return cookie;
}

const buyer = (item: string) => ({
  type: "product",
  item,
  firstName: "Cost",
  lastName: `Buyer ${n}`,
  email: `buyer${n}@example.com`,
  phone: "0821234567",
  address: "1 Long Street\nCape Town",
});
/** Buys every pair of candy earrings on the simulator, so that the next checkout for them is refused. */
let candySoldOut: Promise<void> | undefined;
async function sellOutCandy() {
  for (;;) {
    const ip = nextAddress();
    const created = await fetch(`${base}/checkout?type=product&item=Candy+Earrings`, {
      ...form(buyer("Candy Earrings"), ip),
      redirect: "manual",
    });
    await created.arrayBuffer();
    if (created.status !== 302) return;
    const payPage = new URL(new URL(created.headers.get("location")!, base).pathname, base);
    await send(payPage.toString(), form({ intent: "pay" }, ip));
  }
}

/** Each kind: one visitor's action, and how many requests it made. */
const KINDS: { name: string; run: () => Promise<number> }[] = [
  { name: "page from the cache (GET)", run: async () => (await send(`${base}${PAGES[n++ % PAGES.length]}`), 1) },
  {
    name: "analytics beacon",
    run: async () => {
      const body = JSON.stringify({ eventType: "page_view", pagePath: "/cost", sessionId: randomUUID() });
      await send(`${base}/api/analytics`, {
        method: "POST",
        headers: {
          "Content-Type": "text/plain;charset=UTF-8",
          "X-Forwarded-For": visitorAddress(Math.floor(n++ / 10)),
        },
        body,
      });
      return 1;
    },
  },
  {
    // What the page's fetcher posts with JavaScript: the result as data.
    name: "contact message, with JavaScript (POST /contact.data)",
    run: async () => (
      await send(`${base}/contact.data`, form(message(n), nextAddress(), { "Sec-Fetch-Dest": "empty" })),
      1
    ),
  },
  {
    // Without JavaScript: the post, then the redirect's page (decision 096).
    name: "contact message, posted as a page (POST, 303, GET)",
    run: async () => {
      const posted = await send(
        `${base}/contact`,
        form(message(n), nextAddress(), { Accept: "text/html", "Sec-Fetch-Dest": "document" }),
      );
      await send(new URL(posted.headers.get("location")!, base).toString());
      return 2;
    },
  },
  {
    name: "checkout and payment on the simulator (2 POSTs)",
    run: async () => {
      const ip = nextAddress();
      const created = await send(`${base}/checkout?type=product&item=Test+Product`, form(buyer("Test Product"), ip));
      await send(
        new URL(new URL(created.headers.get("location")!, base).pathname, base).toString(),
        form({ intent: "pay" }, ip),
      );
      return 2;
    },
  },
  {
    // Half the soak's checkouts ask for the candy earrings, sold out within seconds: each is refused.
    name: "checkout refused: sold out (POST, the form again with the reason)",
    run: async () => {
      await (candySoldOut ??= sellOutCandy());
      const posted = form(buyer("Candy Earrings"), nextAddress(), { "User-Agent": UA });
      const response = await fetch(`${base}/checkout?type=product&item=Candy+Earrings`, {
        ...posted,
        redirect: "manual",
      });
      await response.arrayBuffer();
      if (response.status < 400 || response.status >= 500)
        throw new Error(`a sold-out checkout answered ${response.status}`);
      return 1;
    },
  },
  {
    name: "bag view of 3 lines (GET /bag)",
    run: async () => {
      const slot = n++ % CLIENTS;
      const cookie = await (viewedBags[slot] ??= bagOfThree(slot));
      await send(`${base}/bag`, { headers: { Cookie: cookie, "X-Forwarded-For": visitorAddress(90_000 + slot) } });
      return 1;
    },
  },
  {
    name: "bag visit: 2-3 adds, view, checkout, pay on the simulator",
    run: async () => {
      let requests = 0;
      const counted: BagSend = (step, url, request) => (requests++, bagSend(step, url, request));
      const outcome = await bagVisit(counted, base, await bagItems(), n, nextAddress());
      if (outcome === "failed") throw new Error("a bag visit failed");
      return requests;
    },
  },
];

const percentile = (sorted: number[], p: number) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);

async function measure(run: () => Promise<number>) {
  const cpuBefore = readCpuSeconds(app.process.pid!);
  const started = Date.now();
  const latencies: number[] = [];
  let requests = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() - started < SECONDS * 1000) {
        const at = performance.now();
        const made = await run();
        requests += made;
        latencies.push(performance.now() - at);
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const cpu = readCpuSeconds(app.process.pid!) - cpuBefore;
  latencies.sort((a, b) => a - b);
  return {
    requests,
    actions: latencies.length,
    seconds,
    cpu,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
  };
}

console.log(`request cost: ${CLIENTS} clients, ${SECONDS} s per kind after a warm-up round, on ${engine}`);
const rows: (string | number)[][] = [];
const data: Record<string, unknown>[] = [];
for (const kind of KINDS.filter((k) => !ONLY || k.name.includes(ONLY))) {
  await measure(kind.run); // warm-up: JIT, first renders, the kind's queries prepared
  const m = await measure(kind.run);
  const row = {
    kind: kind.name,
    actionsPerSecond: Math.round(m.actions / m.seconds),
    requestsPerSecond: Math.round(m.requests / m.seconds),
    cpuMsPerAction: Math.round((m.cpu * 1000 * 100) / m.actions) / 100,
    serverCpuPercent: Math.round((100 * m.cpu) / m.seconds),
    p50: m.p50,
    p99: m.p99,
  };
  data.push(row);
  rows.push([
    row.kind,
    row.actionsPerSecond,
    row.requestsPerSecond,
    row.cpuMsPerAction,
    `${row.serverCpuPercent}%`,
    row.p50,
    row.p99,
  ]);
  console.log(`${row.kind}: ${row.actionsPerSecond}/s, ${row.cpuMsPerAction} ms of server CPU each`);
}
await app.stop();

const table = markdownTable(
  ["kind (one at a time)", "actions/s", "requests/s", "server CPU ms per action", "server CPU", "p50 ms", "p99 ms"],
  rows,
);
const summary =
  `${CLIENTS} clients for ${SECONDS} s per kind, after a warm-up round of the same length, on ${engine}, ` +
  `Node ${process.version}, 2 cores ` +
  "shared with the load generator. Server CPU is every thread of the server process (with PostgreSQL, its own backends are not counted).";
const markdown = `# Request cost by kind on ${engine} (${new Date().toISOString()})\n\n\`npm run bench:cost\`\n\n${table}\n\n${summary}\n`;
writeResults(
  `request-cost${databaseUrl ? "-postgres" : ""}`,
  { at: new Date().toISOString(), engine, seconds: SECONDS, clients: CLIENTS, kinds: data },
  markdown,
);
console.log(`\n${table}\n\n${summary}`);
await scratch?.drop().catch((error: Error) => console.error(`could not drop the bench database: ${error.message}`));
