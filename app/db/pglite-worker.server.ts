import { createRequire } from "node:module";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import { pgliteBinaryWithSettings } from "./pglite-settings.server";
import { workerMain } from "./pglite-worker-thread.server";

/**
 * PGlite on a worker thread, behind the part of PGlite's client API that Drizzle and the app use
 * (query, exec, transaction, listen, close). PGlite runs Postgres compiled to WebAssembly and
 * executes each query synchronously on the thread that owns it: on the server's main thread that
 * was four tenths of its CPU under the soak, so a crowd's page reads and every write queued behind
 * one another. On its own thread the database works while the main thread answers pages, and the
 * two cores both work (decision 092).
 *
 * Semantics are PGlite's own: one query at a time, and a transaction holds the database until it
 * ends. Values cross the thread boundary by structured clone (strings, numbers, bigints, Dates,
 * byte arrays, plain objects), which is what PGlite returns.
 */

export interface WorkerQueryOptions {
  rowMode?: "array" | "object";
  /** Only Drizzle's parsers are supported: each named type is left as the text Postgres sent. */
  parsers?: Record<number, unknown>;
}

export interface WorkerResults {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

export interface WorkerTransaction {
  query(sql: string, params?: unknown[], options?: WorkerQueryOptions): Promise<WorkerResults>;
  exec(sql: string): Promise<WorkerResults[]>;
}

export interface PgliteInWorker extends WorkerTransaction {
  readonly closed: boolean;
  /**
   * Hands over, now, the answers that open transactions are waiting for, instead of when the event
   * loop next gets to them. Cheap (nothing to do returns at once); the server calls it before each
   * request it starts (see `openPgliteInWorker`).
   */
  deliverTransactionAnswers(): void;
  waitReady: Promise<void>;
  transaction<T>(fn: (tx: WorkerTransaction) => Promise<T>): Promise<T>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  /** The whole data folder as an uncompressed tarball, for `openPgliteInWorker`'s `loadDataDir`. */
  dumpDataDir(): Promise<Uint8Array>;
  close(): Promise<void>;
}

type Request =
  | { op: "query"; sql: string; params: unknown[]; rowMode: "array" | "object"; textTypes: number[]; tx?: number }
  | { op: "exec"; sql: string; tx?: number }
  | { op: "begin"; tx: number }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "listen"; channel: string }
  | { op: "unlisten"; channel: string }
  | { op: "dump" }
  | { op: "close" };

type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: Record<string, unknown> };
type Notice =
  | { op: "ready" }
  | { op: "fatal"; error: Record<string, unknown> }
  | { op: "notify"; channel: string; payload: string };

function rebuildError(fields: Record<string, unknown>): Error {
  const error = new Error(String(fields.message));
  Object.assign(error, fields);
  return error;
}

/** Opens PGlite (in `dir`, or in memory) on a worker thread of its own. */
/**
 * PGlite on a worker thread of its own. `loadDataDir` starts it from a dumped data folder instead of
 * an empty one (tests copy one migrated and seeded database instead of building each: decision 095).
 */
export function openPgliteInWorker(dir?: string, loadDataDir?: Uint8Array): PgliteInWorker {
  // PGlite's CommonJS build, found from here as the app would find it.
  const pglitePath = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  // A transaction holds PGlite, the one connection, from BEGIN to COMMIT, and between two of its
  // statements it waits for this thread: for the answer to reach the code that sends the next one.
  // Through the event loop that took a few milliseconds each time under a crowd (the answer waited
  // behind a whole turn's worth of requests) while every other request's queries waited on the
  // transaction. So a transaction's answers come on a port of their own that this thread also reads
  // between requests (`deliverTransactionAnswers`), and the transaction goes on at once (decision 092).
  const { port1: transactionAnswers, port2: workerTransactionAnswers } = new MessageChannel();
  const wasmBinary = pgliteBinaryWithSettings();
  const worker = new Worker(`(${workerMain.toString()})()`, {
    eval: true,
    workerData: { pglitePath, dir, loadDataDir, transactionAnswers: workerTransactionAnswers, wasmBinary },
    transferList: [workerTransactionAnswers, ...(wasmBinary ? [wasmBinary.buffer] : [])],
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let nextId = 1;
  let nextTx = 1;
  let closed = false;
  let fatal: Error | undefined;

  const failAll = (error: Error) => {
    fatal ??= error;
    closed = true;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  let ready!: () => void;
  let notReady!: (error: Error) => void;
  const waitReady = new Promise<void>((resolve, reject) => {
    ready = resolve;
    notReady = reject;
  });

  function deliver(message: Reply) {
    const call = pending.get(message.id);
    pending.delete(message.id);
    if (!call) return;
    if (message.ok) call.resolve(message.result);
    else call.reject(rebuildError(message.error));
  }
  transactionAnswers.on("message", deliver);
  // The worker keeps the process alive while it runs; this port need not.
  transactionAnswers.unref();

  worker.on("message", (message: Reply | Notice) => {
    if ("id" in message) return deliver(message);
    if (message.op === "ready") ready();
    else if (message.op === "fatal") {
      const error = rebuildError(message.error);
      notReady(error);
      failAll(error);
    } else if (message.op === "notify") {
      for (const callback of listeners.get(message.channel) ?? []) callback(message.payload);
    }
  });
  worker.on("error", (error) => {
    notReady(error);
    failAll(new Error(`PGlite is closed: its worker failed (${error.message})`));
  });
  worker.on("exit", () => failAll(new Error("PGlite is closed")));

  function call<T>(request: Request): Promise<T> {
    if (closed) return Promise.reject(fatal ?? new Error("PGlite is closed"));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, ...request });
    });
  }

  const client = (tx?: number): WorkerTransaction => ({
    query: (sql, params = [], options = {}) =>
      call<WorkerResults>({
        op: "query",
        sql,
        // Buffers arrive as plain byte arrays, which PGlite sends as bytea all the same.
        params,
        rowMode: options.rowMode ?? "object",
        textTypes: Object.keys(options.parsers ?? {}).map(Number),
        tx,
      }),
    exec: (sql) => call<WorkerResults[]>({ op: "exec", sql, tx }),
  });

  return {
    ...client(),
    get closed() {
      return closed;
    },
    deliverTransactionAnswers() {
      if (closed) return;
      for (
        let received = receiveMessageOnPort(transactionAnswers);
        received;
        received = receiveMessageOnPort(transactionAnswers)
      ) {
        deliver(received.message as Reply);
      }
    },
    waitReady,
    async transaction(fn) {
      // BEGIN and the first query travel together: a transaction holds the one connection from
      // BEGIN to COMMIT, and a round trip to this thread and back (behind whatever it is rendering)
      // held it for nothing. The worker runs the transaction's queries once BEGIN has run.
      const tx = nextTx++;
      const began = call<null>({ op: "begin", tx });
      began.catch(() => {}); // awaited below; a failed BEGIN also fails the queries sent behind it
      let result;
      try {
        result = await fn(client(tx));
        await began;
      } catch (error) {
        await call({ op: "end", tx, commit: false }).catch(() => {});
        throw error;
      }
      await call({ op: "end", tx, commit: true });
      return result;
    },
    dumpDataDir: () => call<Uint8Array>({ op: "dump" }),
    async listen(channel, callback) {
      let set = listeners.get(channel);
      if (!set) {
        listeners.set(channel, (set = new Set()));
        await call({ op: "listen", channel });
      }
      set.add(callback);
      return async () => {
        set.delete(callback);
        if (set.size === 0 && listeners.get(channel) === set) {
          listeners.delete(channel);
          if (!closed) await call({ op: "unlisten", channel }).catch(() => {});
        }
      };
    },
    async close() {
      if (closed) return;
      await call({ op: "close" }).catch(() => {});
      closed = true;
      transactionAnswers.close();
      await worker.terminate();
    },
  };
}
