// npm run bench:memory: start-up and memory of the production build (BUILD_DIR or build/), issue 22.
//   Start-up: spawn of `node server.js` to the first 200 on `/` with an EXISTING data folder (the
//   first start, which creates and seeds it, is not counted), median of MEMORY_STARTS starts.
//   Memory: the server process's VmRSS at rest (after start and a round of page views) and its peak
//   during MEMORY_LOAD_SECONDS of autocannon (MEMORY_CONNECTIONS connections on `/` and
//   `/product/candy-earrings`, each request from its own X-Forwarded-For address, TRUST_PROXY=1).
//   Both on PGlite and, with BENCH_PG_URL, on PostgreSQL (a fresh database on that server, dropped
//   at the end); PGlite's share is the RSS on PGlite minus the RSS on PostgreSQL, same build.
//   Issue 43 on PGlite: RSS at rest ≤ 300 MB, peak ≤ 512 MB through each of two identical crowds, the
//   second crowd's peak within 5% of the first's, pages p99 < 200 ms in each (the first begins seconds
//   after the start). The server runs with the Node flags of `npm start` (PGLITE_INSTANCE_NODE_ARGS).
//   MEMORY_STARTS=5   MEMORY_LOAD_SECONDS=30   MEMORY_CONNECTIONS=100   MEMORY_CROWDS=2   BENCH_PG_URL=postgres://…
//   MEMORY_TIMING=advisory   a missed page p99 is reported but fails nothing (a shared machine)
//   MEMORY_PGLITE_NODE_ARGS="…"   other Node flags for PGlite ("" for none), to measure what each flag buys
import autocannon from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import {
  freePort,
  markdownTable,
  PGLITE_INSTANCE_NODE_ARGS,
  POSTGRES_INSTANCE_NODE_ARGS,
  readCpuSeconds,
  readRssMb,
  visitorAddress,
  writeResults,
} from "./lib/server";

const STARTS = Number(process.env.MEMORY_STARTS ?? 5);
const LOAD_SECONDS = Number(process.env.MEMORY_LOAD_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.MEMORY_CONNECTIONS ?? 100);
const CROWDS = Math.max(1, Number(process.env.MEMORY_CROWDS ?? 2));
const TIMING_ADVISORY = process.env.MEMORY_TIMING === "advisory";
const PGLITE_NODE_ARGS =
  process.env.MEMORY_PGLITE_NODE_ARGS === undefined
    ? PGLITE_INSTANCE_NODE_ARGS
    : process.env.MEMORY_PGLITE_NODE_ARGS.split(" ").filter(Boolean);
const PG_URL = process.env.BENCH_PG_URL;
const BUILD_DIR = process.env.BUILD_DIR ?? "build";
/** Issue 22's targets. */
const TARGETS = { startupMs: 2000, postgresRestMb: 150, postgresLoadMb: 200 };
/** Issue 43's, on PGlite: a 1 GB machine with room to spare; crowds that leave nothing behind. */
const PGLITE_TARGETS = { restMb: 300, peakMb: 512, crowdGrowth: 0.05, pageP99Ms: 200 };
const LOAD_PATHS = ["/", "/product/candy-earrings"];
const REST_PAGES = ["/", "/product/candy-earrings", "/styled-collections", "/events", "/blog", "/about", "/contact"];
const BROWSER_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";

if (!fs.existsSync(path.join(BUILD_DIR, "server", "index.js"))) {
  console.error(`no build in ${BUILD_DIR}/: run npm run build first`);
  process.exit(1);
}

/**
 * One GET on a connection of its own (no keep-alive), its body read to the end: a response left
 * unread, or an idle pooled connection, would hold the server's shutdown open.
 */
function get(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get(
      url,
      { agent: false, headers: { "User-Agent": BROWSER_UA, "Accept-Encoding": "br, gzip", ...headers } },
      (response) => {
        response.resume();
        response.once("end", () => resolve(response.statusCode ?? 0));
        response.once("error", () => resolve(0));
      },
    );
    request.once("error", () => resolve(0));
  });
}

interface Server {
  base: string;
  child: ChildProcess;
  /** Spawn to the first 200 on `/`. */
  startupMs: number;
  /** CPU the server used up to then: it depends less than the time on what else the machine runs. */
  startupCpuSeconds: number;
  stop(): Promise<void>;
}

/** Starts `node server.js` on the build with this data folder (and database), as behind one proxy. */
async function startServer(dataDir: string, databaseUrl: string | undefined): Promise<Server> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn("node", [...(databaseUrl ? POSTGRES_INSTANCE_NODE_ARGS : PGLITE_NODE_ARGS), "server.js"], {
    env: {
      ...process.env,
      BUILD_DIR,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: "bench-admin-password",
      TRUST_PROXY: "1",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while ((await get(`${base}/`)) !== 200) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL");
      throw new Error("the server did not answer 200 on / within 60 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const startupMs = Math.round(performance.now() - started);
  const startupCpuSeconds = readCpuSeconds(child.pid!);
  return {
    base,
    child,
    startupMs,
    startupCpuSeconds,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
};

interface EngineResult {
  engine: "PGlite" | "PostgreSQL";
  firstStartMs: number;
  startsMs: number[];
  startupMedianMs: number;
  startsCpuSeconds: number[];
  restMb: number;
  /** One per crowd, in order. */
  crowds: Crowd[];
  loadPeakMb: number;
  afterLoadMb: number;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

interface Crowd {
  peakMb: number;
  afterMb: number;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

async function measure(engine: EngineResult["engine"], databaseUrl: string | undefined): Promise<EngineResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "honey-memory-"));
  try {
    // The first start creates the data folder (and migrates and seeds the database): not counted.
    const creating = await startServer(dataDir, databaseUrl);
    await creating.stop();
    console.log(`${engine}: first start ${creating.startupMs} ms (creates the data)`);

    const startsMs: number[] = [];
    const startsCpuSeconds: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      const server = await startServer(dataDir, databaseUrl);
      startsMs.push(server.startupMs);
      startsCpuSeconds.push(server.startupCpuSeconds);
      await server.stop();
    }
    const startupMedianMs = median(startsMs);
    console.log(
      `${engine}: start-up with an existing data folder ${startsMs.join(", ")} ms, median ${startupMedianMs} ms; ` +
        `CPU ${startsCpuSeconds.join(", ")} s`,
    );

    const server = await startServer(dataDir, databaseUrl);
    try {
      const pid = server.child.pid!;
      for (let round = 0; round < 3; round++) {
        for (const page of REST_PAGES) await get(`${server.base}${page}`, { "X-Forwarded-For": visitorAddress(round) });
      }
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const restMb = readRssMb(pid);

      const crowds: Crowd[] = [];
      let n = 0;
      for (let crowd = 0; crowd < CROWDS; crowd++) {
        let peak = readRssMb(pid);
        const sampler = setInterval(() => (peak = Math.max(peak, readRssMb(pid))), 250);
        const result = await new Promise<autocannon.Result>((resolve, reject) => {
          autocannon(
            {
              url: server.base,
              connections: CONNECTIONS,
              duration: LOAD_SECONDS,
              requests: [
                {
                  setupRequest: (request) => {
                    n++;
                    return {
                      ...request,
                      path: LOAD_PATHS[n % LOAD_PATHS.length]!,
                      headers: {
                        ...request.headers,
                        "User-Agent": BROWSER_UA,
                        "Accept-Encoding": "br, gzip",
                        "X-Forwarded-For": visitorAddress(n),
                      },
                    };
                  },
                },
              ],
            },
            (error, done) => (error ? reject(error) : resolve(done)),
          );
        });
        clearInterval(sampler);
        // The crowd has gone: what the server still holds a few seconds later.
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        const afterMb = readRssMb(pid);
        crowds.push({
          peakMb: Math.max(peak, afterMb),
          afterMb,
          requestsPerSecond: Math.round(result.requests.average),
          p99Ms: result.latency.p99,
          errors: result.errors + result.timeouts,
          non2xx: result.non2xx,
        });
        console.log(
          `${engine}: crowd ${crowd + 1}: peak ${crowds[crowd]!.peakMb} MB, ${afterMb} MB after ` +
            `(${crowds[crowd]!.requestsPerSecond} req/s, p99 ${result.latency.p99} ms, ${result.non2xx} non-2xx)`,
        );
      }
      const first = crowds[0]!;
      const out: EngineResult = {
        engine,
        firstStartMs: creating.startupMs,
        startsMs,
        startupMedianMs,
        startsCpuSeconds,
        restMb,
        crowds,
        loadPeakMb: Math.max(...crowds.map((c) => c.peakMb)),
        afterLoadMb: crowds[crowds.length - 1]!.afterMb,
        requestsPerSecond: first.requestsPerSecond,
        p99Ms: first.p99Ms,
        errors: crowds.reduce((sum, c) => sum + c.errors, 0),
        non2xx: crowds.reduce((sum, c) => sum + c.non2xx, 0),
      };
      console.log(`${engine}: RSS ${restMb} MB at rest, peak ${out.loadPeakMb} MB under load`);
      return out;
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function withPostgresDatabase<T>(url: string, work: (databaseUrl: string) => Promise<T>): Promise<T> {
  const name = `memory_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  try {
    return await work(scratch.toString());
  } finally {
    await admin.query(`drop database if exists "${name}" with (force)`).catch(() => {});
    await admin.end();
  }
}

const loadBefore = os.loadavg()[0]!;
const pglite = await measure("PGlite", undefined);
const postgres = PG_URL ? await withPostgresDatabase(PG_URL, (url) => measure("PostgreSQL", url)) : undefined;

interface Row {
  target: string;
  measured: string;
  /** true pass, false fail, undefined a figure recorded (or a target not measured). */
  ok?: boolean;
  note?: string;
  /** A missed timing reported but failing nothing (MEMORY_TIMING=advisory). */
  advisory?: boolean;
}
const rows: Row[] = [];
const startupRow = (r: EngineResult): Row => ({
  target: `start-up on ${r.engine}, existing data folder (median of ${r.startsMs.length}) < ${TARGETS.startupMs / 1000} s`,
  measured: `${r.startupMedianMs} ms (${r.startsMs.join(", ")}; CPU ${r.startsCpuSeconds.join(", ")} s)`,
  ok: r.startupMedianMs < TARGETS.startupMs,
});
rows.push(startupRow(pglite));
if (postgres) {
  rows.push(startupRow(postgres));
  rows.push({
    target: `PostgreSQL: RSS at rest < ${TARGETS.postgresRestMb} MB`,
    measured: `${postgres.restMb} MB`,
    ok: postgres.restMb < TARGETS.postgresRestMb,
  });
  rows.push({
    target: `PostgreSQL: RSS under load < ${TARGETS.postgresLoadMb} MB`,
    measured: `peak ${postgres.loadPeakMb} MB (${postgres.requestsPerSecond} req/s)`,
    ok: postgres.loadPeakMb < TARGETS.postgresLoadMb,
  });
  const share = (a: number, b: number) => `${Math.round((a - b) * 10) / 10} MB (${a} − ${b})`;
  rows.push({
    target: "PGlite's share at rest (RSS on PGlite − on PostgreSQL)",
    measured: share(pglite.restMb, postgres.restMb),
    note: "recorded",
  });
  rows.push({
    target: "PGlite's share under load (peaks)",
    measured: share(pglite.loadPeakMb, postgres.loadPeakMb),
    note: "recorded",
  });
} else {
  for (const target of [
    `start-up on PostgreSQL < ${TARGETS.startupMs / 1000} s`,
    `PostgreSQL: RSS at rest < ${TARGETS.postgresRestMb} MB`,
    `PostgreSQL: RSS under load < ${TARGETS.postgresLoadMb} MB`,
    "PGlite's share",
  ]) {
    rows.push({ target, measured: "not measured", note: "set BENCH_PG_URL" });
  }
}
// Issue 43: the embedded database on a small machine.
const crowdList = (values: number[], unit: string) => values.map((v) => `${v} ${unit}`).join(", then ");
rows.push({
  target: `PGlite: RSS at rest ≤ ${PGLITE_TARGETS.restMb} MB (issue 43)`,
  measured: `${pglite.restMb} MB`,
  ok: pglite.restMb <= PGLITE_TARGETS.restMb,
});
rows.push({
  target: `PGlite: RSS peak ≤ ${PGLITE_TARGETS.peakMb} MB through ${CROWDS} crowds of ${CONNECTIONS} clients for ${LOAD_SECONDS} s`,
  measured: crowdList(
    pglite.crowds.map((c) => c.peakMb),
    "MB",
  ),
  ok: pglite.loadPeakMb <= PGLITE_TARGETS.peakMb,
});
if (pglite.crowds.length >= 2) {
  const [first, second] = [pglite.crowds[0]!.peakMb, pglite.crowds[1]!.peakMb];
  const growth = (second - first) / first;
  rows.push({
    target: `PGlite: the second crowd's peak within ${PGLITE_TARGETS.crowdGrowth * 100}% of the first's`,
    measured: `${first} MB then ${second} MB (${growth >= 0 ? "+" : ""}${(growth * 100).toFixed(1)}%)`,
    ok: growth <= PGLITE_TARGETS.crowdGrowth,
  });
}
rows.push({
  target: `PGlite: pages p99 < ${PGLITE_TARGETS.pageP99Ms} ms in each crowd, the first just after the start`,
  measured: crowdList(
    pglite.crowds.map((c) => c.p99Ms),
    "ms",
  ),
  ok: pglite.crowds.every((c) => c.p99Ms < PGLITE_TARGETS.pageP99Ms),
  advisory: TIMING_ADVISORY,
});
rows.push({
  target: "PGlite: RSS at rest / under load",
  measured: `${pglite.restMb} MB / peak ${pglite.loadPeakMb} MB (${pglite.requestsPerSecond} req/s)`,
  note: "recorded",
});

const failures = [pglite, postgres].filter((r): r is EngineResult => Boolean(r && (r.errors || r.non2xx)));
for (const r of failures)
  rows.push({
    target: `${r.engine}: no errors under load`,
    measured: `${r.non2xx} non-2xx, ${r.errors} errors`,
    ok: false,
  });

const result = (row: Row) =>
  row.ok === true ? "ok" : row.ok === false ? (row.advisory ? "missed (advisory)" : "FAILED") : (row.note ?? "");
const table = markdownTable(
  ["target (issues 22 and 43)", "measured", "result"],
  rows.map((row) => [row.target, row.measured, result(row)]),
);
const engines = [pglite, postgres].filter((r): r is EngineResult => Boolean(r));
const detail = markdownTable(
  [
    "engine",
    "first start ms",
    "starts ms",
    "CPU to first 200 s",
    "RSS at rest MB",
    "RSS peak per crowd MB",
    "RSS after each crowd MB",
    "req/s per crowd",
    "p99 ms per crowd",
  ],
  engines.map((r) => [
    r.engine,
    r.firstStartMs,
    r.startsMs.join(", "),
    r.startsCpuSeconds.join(", "),
    r.restMb,
    r.crowds.map((c) => c.peakMb).join(", "),
    r.crowds.map((c) => c.afterMb).join(", "),
    r.crowds.map((c) => c.requestsPerSecond).join(", "),
    r.crowds.map((c) => c.p99Ms).join(", "),
  ]),
);
const asNpmStart = PGLITE_NODE_ARGS === PGLITE_INSTANCE_NODE_ARGS ? " (as `npm start`)" : "";
const summary =
  `Build in ${BUILD_DIR}/, Node ${process.version}, ${os.cpus().length} cores shared with the load generator ` +
  `(machine load average ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end: other work slows start-up). ` +
  `Start-up: spawn of \`node server.js\` to the first 200 on \`/\`, the data folder created by an uncounted first ` +
  `start, ADMIN_PASSWORD set; ` +
  `its CPU (user + system, every thread of the server) depends less on the machine's other work than the time does. ` +
  `At rest: after ${REST_PAGES.length} pages viewed 3 times and 3 s idle. Under load: ${CROWDS} crowds, each of ` +
  `${CONNECTIONS} connections for ${LOAD_SECONDS} s on ${LOAD_PATHS.join(" and ")} and 3 s after it, ` +
  `RSS (VmRSS) sampled every 250 ms. Node flags: PGlite \`${PGLITE_NODE_ARGS.join(" ") || "none"}\`${asNpmStart}, ` +
  `PostgreSQL \`${POSTGRES_INSTANCE_NODE_ARGS.join(" ")}\` (as the deployment guide's unit).`;
const markdown = `# Start-up and memory (${new Date().toISOString()})\n\n${table}\n\n${detail}\n\n${summary}\n`;
const passed = rows.filter((row) => row.ok === true).length;
const failed = rows.filter((row) => row.ok === false && !row.advisory).length;
const file = writeResults(
  "memory",
  { at: new Date().toISOString(), node: process.version, targets: TARGETS, engines, rows, passed, failed },
  markdown,
);
console.log(`\n${table}\n\n${detail}\n\n${summary}\n\nwritten to ${file}`);
console.log(`memory: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
