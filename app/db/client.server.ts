import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import { pgliteBinaryWithSettings } from "./pglite-settings.server";
import { openPgliteInWorker, type PgliteInWorker } from "./pglite-worker.server";
import * as schema from "./schema";

/** The app's database, whichever engine is behind it: same schema, same SQL. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** An open transaction of that database: what code that must run inside its caller's transaction takes. */
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** What a change notice says moved: stock only, or anything (content, or unknown after an outage). */
export type ContentChange = "content" | "stock";

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** Rejects when the database cannot answer a trivial query within the timeout. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
  /**
   * Calls `listener` soon after any change to what public pages show commits, on this instance or
   * another one sharing the database (the content_version trigger's NOTIFY). Returns a stop function.
   */
  onContentChange(listener: (what: ContentChange) => void): Promise<() => Promise<void>>;
  /**
   * Hands over the answers open transactions wait for, now rather than at the event loop's next
   * turn (PGlite on its worker; nothing to do on PostgreSQL). The server calls it as each request
   * arrives, so a busy thread still moves transactions along (decision 092).
   */
  deliverTransactionAnswers(): void;
  /** The underlying driver, for migrations and tests. */
  raw: { pglite?: PGlite; pool?: pg.Pool };
  /** PGlite only: the whole data folder as a tarball, to start another database from (`pgliteFrom`). */
  dumpDataDir?(): Promise<Uint8Array>;
}

export interface OpenDatabaseOptions {
  /** postgres:// URL; when absent PGlite is used. */
  databaseUrl?: string;
  /** Folder for PGlite's files; omit for an in-memory database (tests). */
  pgliteDir?: string;
  /** Connections per instance in the PostgreSQL pool. */
  poolSize?: number;
  /**
   * Run PGlite on a worker thread of its own (the server and the tests do; decision 092). Scripts
   * keep it in process, where `raw.pglite` reaches the engine itself.
   */
  pgliteWorker?: boolean;
  /** PGlite: start from this dumped data folder (`dumpDataDir`) instead of an empty one. */
  pgliteFrom?: Uint8Array;
}

/**
 * Each engine's driver is loaded only when it is opened: a server on PostgreSQL never loads PGlite
 * (nor Drizzle's driver for it), and one on PGlite never loads `pg`. Less to import before the
 * first page, less memory held for nothing (decision 090).
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.pgliteDir, options.pgliteWorker ?? false, options.pgliteFrom);
}

async function openPglite(
  dir: string | undefined,
  inWorker: boolean,
  from: Uint8Array | undefined,
): Promise<DatabaseHandle> {
  if (dir) fs.mkdirSync(path.dirname(path.resolve(dir)), { recursive: true });
  const resolved = dir ? path.resolve(dir) : undefined;
  // The worker starts first: PGlite boots on its own thread while this one loads Drizzle's driver.
  const loadDataDir = from ? new Uint8Array(from) : undefined;
  const opening = inWorker
    ? Promise.resolve(openPgliteInWorker(resolved, loadDataDir))
    : import("@electric-sql/pglite").then(async ({ PGlite }) => {
        const binary = pgliteBinaryWithSettings();
        return new PGlite({
          dataDir: resolved,
          loadDataDir: loadDataDir ? new Blob([loadDataDir]) : undefined,
          wasmModule: binary ? await WebAssembly.compile(binary) : undefined,
        });
      });
  const [{ drizzle: drizzlePglite }, client] = await Promise.all([
    import("drizzle-orm/pglite"),
    opening.then(async (opened) => {
      await opened.waitReady;
      return opened;
    }),
  ]);
  // The worker's client answers the calls Drizzle makes of a PGlite (query, transaction), so Drizzle's PGlite driver serves both.
  const db = drizzlePglite(client as PGlite, { schema }) as unknown as Database;
  let closed = false;
  return {
    db,
    kind: "pglite",
    raw: inWorker ? {} : { pglite: client as PGlite },
    async ping(timeoutMs = 2000) {
      if (closed || client.closed) throw new Error("database is closed");
      await withTimeout(client.query("select 1"), timeoutMs);
    },
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
    deliverTransactionAnswers: inWorker ? () => (client as PgliteInWorker).deliverTransactionAnswers() : () => {},
    dumpDataDir: inWorker
      ? () => (client as PgliteInWorker).dumpDataDir()
      : async () => new Uint8Array(await (await (client as PGlite).dumpDataDir("none")).arrayBuffer()),
    async onContentChange(listener) {
      const unlisten = await client.listen(CONTENT_CHANNEL, (payload) => listener(changeOf(payload)));
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
  };
}

const CONTENT_CHANNEL = "content_version";
/** The trigger's payload: "stock" from bump_stock_version (drizzle/0007), empty for any other change. */
const changeOf = (payload: string | undefined): ContentChange => (payload === "stock" ? "stock" : "content");

/**
 * A connection of its own that LISTENs for content changes, reconnecting after an outage (and then
 * reporting a change, since notifications sent while it was away are lost).
 */
function listenOnPostgres(pg: PgModule, url: string, listener: (what: ContentChange) => void): () => Promise<void> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (afterOutage: boolean) => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    client = next;
    next.on("notification", (message) => listener(changeOf(message.payload)));
    next.on("error", () => reconnect());
    next.on("end", () => reconnect());
    try {
      await next.connect();
      await next.query(`LISTEN ${CONTENT_CHANNEL}`);
      if (afterOutage) listener("content");
    } catch {
      reconnect();
    }
  };
  const reconnect = () => {
    if (stopped || retry) return;
    client?.removeAllListeners();
    client?.end().catch(() => {});
    retry = setTimeout(() => {
      retry = undefined;
      void connect(true);
    }, 1_000);
    retry.unref();
  };
  void connect(false);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    client?.removeAllListeners();
    await client?.end().catch(() => {});
  };
}

type PgModule = typeof pg;

async function openPostgres(url: string, poolSize: number): Promise<DatabaseHandle> {
  const [{ default: pg }, { drizzle: drizzleNodePg }] = await Promise.all([
    import("pg"),
    import("drizzle-orm/node-postgres"),
  ]);
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    query_timeout: 15_000,
  });
  // An idle client losing its connection (database restarted) must not crash the process;
  // the pool replaces it and the next query reports the outage to its caller.
  pool.on("error", (error) => console.error(`[db] idle connection error: ${error.message}`));
  pool.on("connect", oneQueryAtATime);
  const db = drizzleNodePg(pool, { schema }) as unknown as Database;
  let closed = false;
  const listeners = new Set<() => Promise<void>>();
  return {
    db,
    kind: "postgres",
    raw: { pool },
    async ping(timeoutMs = 2000) {
      if (closed) throw new Error("database is closed");
      await withTimeout(pool.query("select 1"), timeoutMs);
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
    deliverTransactionAnswers: () => {},
    async onContentChange(listener) {
      const stop = listenOnPostgres(pg, url, listener);
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
    },
  };
}

/**
 * A transaction sends statements that need nothing from one another without waiting for each answer
 * (recordPayment: on PGlite's worker they travel together, decision 092). node-postgres runs one query
 * at a time per connection and queues the rest itself, but that queue is deprecated (it warns, and
 * pg@9 removes it), so each of a connection's promised queries starts once the one before has ended,
 * in the order they were asked.
 */
function oneQueryAtATime(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let previous: Promise<unknown> = Promise.resolve();
  client.query = ((...args: unknown[]) => {
    // Callback and submittable forms (the pool's own `pool.query`, cursors) are left as pg runs them.
    if (
      typeof args[args.length - 1] === "function" ||
      typeof (args[0] as { submit?: unknown } | undefined)?.submit === "function"
    ) {
      return query(...args);
    }
    const run = previous.then(() => query(...args));
    previous = run.catch(() => {});
    return run;
  }) as typeof client.query;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`database did not answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Row count helper that works the same on both drivers. */
export async function countRows(db: Database, table: string): Promise<number> {
  const result = await db.execute(sql.raw(`select count(*)::int as n from "${table}"`));
  const rows = (result as unknown as { rows: { n: number }[] }).rows;
  return Number(rows[0]?.n ?? 0);
}
