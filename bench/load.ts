// npm run bench: autocannon on 127.0.0.1 against the production build with a fresh PGlite data folder,
// compared in the same run with a bare Node `http` server returning the same bytes as `/`.
//   BENCH_SECONDS=10 (per case)   BENCH_CONNECTIONS=50
import { PGlite } from "@electric-sql/pglite";
import autocannon from "autocannon";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { spawn } from "node:child_process";
import path from "node:path";
import { freePort, markdownTable, readRssMb, startBuiltServer, visitorAddress, writeResults } from "./lib/server";

/** The bare server: the file's bytes for every request, on loopback; says "ready" once listening. */
const BARE_SERVER = `
const [file, port] = process.argv.slice(1);
const bytes = require("node:fs").readFileSync(file);
require("node:http")
  .createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": bytes.length });
    res.end(bytes);
  })
  .listen(Number(port), "127.0.0.1", () => console.log("ready"));
`;

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ANALYTICS_TARGET = 3000;
const BROWSER_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";

interface CaseResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  errors: number;
  non2xx: number;
}

async function load(name: string, options: autocannon.Options): Promise<CaseResult> {
  let deadline: NodeJS.Timeout | undefined;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    // A fixed amount has no timer of its own: stop it at twice the case's time at the latest.
    if (options.amount) deadline = setTimeout(() => instance.stop(), SECONDS * 2000);
  });
  clearTimeout(deadline);
  const ok = (result as unknown as Record<string, number>)["2xx"] ?? 0;
  const out = {
    name,
    // With a fixed amount the last second is partial: divide by the real duration instead.
    rps: Math.round(options.amount ? (ok + result.non2xx) / result.duration : result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
  console.log(
    `${name}: ${out.rps} req/s, p50 ${out.p50} ms, p99 ${out.p99} ms, ${out.ok} 2xx, ${out.non2xx} non-2xx, ${out.errors} errors`,
  );
  return out;
}

const app = await startBuiltServer({ ADMIN_PASSWORD: "bench-admin-password" });
let events = 0;
console.log(`startup: first 200 on / after ${Math.round(app.startupMs)} ms`);

// The baseline: Node's bare http server answering with the very bytes `/` returns. It runs in a
// process of its own, like the app: inside this one it would share an event loop with autocannon.
const home = await fetch(`${app.base}/`, { headers: { "Accept-Encoding": "identity" } });
const homeFile = path.join(app.dataDir, "baseline-home.html");
fs.writeFileSync(homeFile, Buffer.from(await home.arrayBuffer()));
const basePort = await freePort();
const bare = spawn(process.execPath, ["-e", BARE_SERVER, homeFile, String(basePort)], {
  stdio: ["ignore", "pipe", "inherit"],
});
await new Promise<void>((resolve, reject) => {
  bare.stdout!.once("data", () => resolve());
  bare.once("exit", (code) => reject(new Error(`the baseline server exited (${code})`)));
});

const results: CaseResult[] = [];
let memoryMb = 0;
let storedEvents = 0;
try {
  results.push(await load("baseline: bare node http, same bytes as /", { url: `http://127.0.0.1:${basePort}/` }));
  results.push(await load("GET / (anonymous)", { url: `${app.base}/`, headers: { "user-agent": BROWSER_UA } }));
  results.push(
    await load("GET /product/candy-earrings (anonymous)", {
      url: `${app.base}/product/candy-earrings`,
      headers: { "user-agent": BROWSER_UA },
    }),
  );
  // A fixed number of events (the target rate for the case's time) rather than a timer: autocannon
  // abandons the requests in flight when its timer fires, so the server stores events whose answers
  // nobody counted. A fixed amount waits for every answer, so "stored = accepted" can be exact.
  results.push(
    await load("POST /api/analytics (page views)", {
      url: `${app.base}/api/analytics`,
      amount: ANALYTICS_TARGET * SECONDS,
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": BROWSER_UA },
      requests: [
        {
          // Ten page views per visitor address, as visitors arrive through the proxy (TRUST_PROXY=1).
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, "x-forwarded-for": visitorAddress(Math.floor(events++ / 10)) },
            body: JSON.stringify({
              eventType: "page_view",
              pagePath: "/bench",
              itemName: null,
              sessionId: randomUUID(),
              referrer: null,
              metadata: null,
            }),
          }),
        },
      ],
    }),
  );
  memoryMb = Math.round(readRssMb(app.process.pid!));
} finally {
  bare.kill();
  await app.stop();
}

const db = new PGlite(path.join(app.dataDir, "pglite"));
storedEvents = Number(
  (await db.query<{ n: number }>("select count(*)::int as n from analytics_events where page_path = '/bench'")).rows[0]
    .n,
);
await db.close();

const [baseline, homeCase, productCase, analyticsCase] = results;
const ratio = (r: CaseResult) => `${Math.round((r.rps / baseline.rps) * 100)}%`;
const checks = [
  {
    name: "anonymous / >= 25% of the bare baseline's req/s, no errors",
    ok: homeCase.rps >= baseline.rps * 0.25 && homeCase.errors === 0 && homeCase.non2xx === 0,
    value: `${ratio(homeCase)} (${homeCase.rps} vs ${baseline.rps} req/s), ${homeCase.errors + homeCase.non2xx} errors`,
  },
  {
    name: "anonymous product page: no errors",
    ok: productCase.errors === 0 && productCase.non2xx === 0,
    value: `${ratio(productCase)} (${productCase.rps} req/s), ${productCase.errors + productCase.non2xx} errors`,
  },
  {
    name: "analytics >= 3,000 events/s, no errors",
    ok: analyticsCase.rps >= ANALYTICS_TARGET && analyticsCase.errors === 0 && analyticsCase.non2xx === 0,
    value: `${analyticsCase.rps} events/s, ${analyticsCase.errors + analyticsCase.non2xx} errors`,
  },
  {
    name: "every accepted analytics event stored",
    ok: storedEvents === analyticsCase.ok,
    value: `${storedEvents} stored / ${analyticsCase.ok} accepted`,
  },
];

const table = markdownTable(
  ["case", "req/s", "p50 ms", "p99 ms", "2xx", "errors", "vs baseline"],
  results.map((r) => [r.name, r.rps, r.p50, r.p99, r.ok, r.errors + r.non2xx, r === baseline ? "100%" : ratio(r)]),
);
const checkTable = markdownTable(
  ["target", "measured", "result"],
  checks.map((c) => [c.name, c.value, c.ok ? "ok" : "MISSED"]),
);
const extra =
  `Start-up (spawn to first 200 on /): ${Math.round(app.startupMs)} ms. Server memory (RSS) after the ` +
  `load: ${memoryMb} MB. ${CONNECTIONS} connections, ${SECONDS} s per case, ` +
  `Node ${process.version}, ${(await import("node:os")).cpus().length} cores.`;
const markdown = `# Load benchmark (${new Date().toISOString()})\n\n${table}\n\n${checkTable}\n\n${extra}\n`;
const file = writeResults(
  "load",
  {
    at: new Date().toISOString(),
    seconds: SECONDS,
    connections: CONNECTIONS,
    results,
    checks,
    startupMs: app.startupMs,
    memoryMb,
    storedEvents,
  },
  markdown,
);
console.log(`\n${table}\n\n${checkTable}\n\n${extra}\nwritten to ${file}`);
const failed = checks.filter((c) => !c.ok).length;
console.log(`bench: ${checks.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
