import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export interface BenchServer {
  base: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  /** Milliseconds from spawning `node server.js` to the first 200 on `/`. */
  startupMs: number;
  stop(): Promise<void>;
}

/**
 * The Node flags of the systemd unit in docs/deployment.md, which runs each instance on PostgreSQL. Without a
 * ceiling V8 lets the old space grow toward a quarter of the machine's memory while a crowd is in
 * flight and keeps it (319 MB under the soak against a 50 MB live heap); with one it collects sooner
 * (decision 100). The young generation's two halves are 8 MB each rather than 16: 16 MB less held
 * under load, for a few per cent of throughput, within the soak's noise (decision 102). Benches on PostgreSQL
 * start the server the same way; a test holds the two together.
 */
export const POSTGRES_INSTANCE_NODE_ARGS = ["--max-old-space-size=192", "--max-semi-space-size=8"];

/**
 * The Node flags `npm start` runs with (package.json), on the embedded database: the PostgreSQL unit's, and
 * PGlite's WebAssembly run by V8's baseline compiler only. Optimising its hot functions as they warm up
 * held 35–75 MB more for good (compiled code and the compiler's freed memory in malloc arenas), varying
 * from start to start, and spent the first crowd's CPU compiling (decision 138). Benches on PGlite start
 * the server the same way; a test holds package.json to this list.
 */
export const PGLITE_INSTANCE_NODE_ARGS = [...POSTGRES_INSTANCE_NODE_ARGS, "--liftoff-only"];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built app (BUILD_DIR or build/) on a free loopback port with a fresh PGlite data folder,
 * as behind one reverse proxy (TRUST_PROXY=1): the benches send X-Forwarded-For from many visitor
 * addresses, as real visitors arrive, since one address has a budget of its own (decision 079).
 */
export async function startBuiltServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const buildDir = process.env.BUILD_DIR ?? "build";
  if (!fs.existsSync(path.join(buildDir, "server", "index.js"))) {
    throw new Error(`no build in ${buildDir}/: run npm run build first`);
  }
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "honey-bench-"));
  // Benches read the database after stopping the server (the soak's counts), so the folder goes when
  // the bench itself exits: a soak leaves hundreds of MB behind otherwise.
  process.once("exit", () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const started = performance.now();
  // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server (NODE_OPTIONS refuses --cpu-prof).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const instanceArgs = env.DATABASE_URL ? POSTGRES_INSTANCE_NODE_ARGS : PGLITE_INSTANCE_NODE_ARGS;
  const child = spawn("node", [...instanceArgs, ...nodeArgs, "server.js"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: "bench-admin-password",
      TRUST_PROXY: "1",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await fetch(`${base}/`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error("the server did not answer 200 on / within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const startupMs = performance.now() - started;
  return {
    base,
    port,
    dataDir,
    process: child,
    startupMs,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** The address of the n-th simulated visitor, as the proxy would append it to X-Forwarded-For. */
export function visitorAddress(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export function writeResults(name: string, data: unknown, markdown: string): string {
  const dir = path.join("bench", "results");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(data, null, 2));
  fs.writeFileSync(path.join(dir, `${name}.md`), markdown);
  return path.join(dir, `${name}.md`);
}

export function markdownTable(headers: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

/** A process's resident set size in MB (one decimal), from /proc (Linux); 0 once it has exited. */
export function readRssMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system, every thread) a process has used so far, from /proc (Linux). */
export function readCpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
