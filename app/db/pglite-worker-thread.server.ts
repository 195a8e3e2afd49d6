import type { MessagePort } from "node:worker_threads";

/**
 * The code of PGlite's worker thread, started by `openPgliteInWorker` (pglite-worker.server.ts). It
 * runs from source text (`eval`, a CommonJS script), so it must not close over anything from this
 * module or that one: everything it needs arrives in `workerData`. Written as a function so that it is
 * type-checked and linted like the rest; it loads modules with `require`, which neither the build nor
 * the development server rewrites (they rewrite `import()`). In a file of its own so that each side of
 * the thread boundary reads on its own.
 */
export async function workerMain() {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parentPort, workerData } = require("node:worker_threads") as typeof import("node:worker_threads");
  const { pglitePath, dir, loadDataDir, transactionAnswers, wasmBinary } = workerData as {
    pglitePath: string;
    dir?: string;
    loadDataDir?: Uint8Array<ArrayBuffer>;
    transactionAnswers: MessagePort;
    /** PGlite's binary with the app's memory settings (pglite-settings.server.ts); absent, PGlite's own. */
    wasmBinary?: Uint8Array<ArrayBuffer>;
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PGlite, protocol, parse } = require(pglitePath) as typeof import("@electric-sql/pglite");
  const port = parentPort!;
  type Parser = (value: string, typeId?: number) => unknown;
  type RowDescription = InstanceType<typeof protocol.messages.RowDescriptionMessage>;
  type Tx = Parameters<Parameters<InstanceType<typeof PGlite>["transaction"]>[0]>[0];
  const describe = (error: unknown) => {
    const e = error as Record<string, unknown> & { message?: string; name?: string };
    const out: Record<string, unknown> = { message: String(e?.message ?? error), name: e?.name };
    for (const [key, value] of Object.entries(e ?? {})) {
      if (value === null || ["string", "number", "boolean"].includes(typeof value)) out[key] = value;
    }
    return out;
  };
  let db: InstanceType<typeof PGlite>;
  try {
    db = new PGlite({
      dataDir: dir,
      loadDataDir: loadDataDir ? new Blob([loadDataDir]) : undefined,
      wasmModule: wasmBinary ? await WebAssembly.compile(wasmBinary) : undefined,
    });
    await db.waitReady;
  } catch (error) {
    port.postMessage({ op: "fatal", error: describe(error) });
    return;
  }
  /**
   * Open transactions by the id the main thread chose. The main thread sends a transaction's first
   * query right behind its BEGIN without waiting for an answer, so `ready` is what a query waits on:
   * the moment PGlite gives the transaction the database, its first query is already here.
   */
  interface OpenTransaction {
    ready: Promise<Tx>;
    end?: (commit: boolean) => void;
  }
  const transactions = new Map<number, OpenTransaction>();
  const endings = new Map<number, { done: (value: unknown) => void; failed: (error: unknown) => void }>();
  const unlisteners = new Map<string, () => Promise<void>>();
  const identity = (value: unknown) => value;
  const ended = () => new Error("the transaction has already ended");
  async function target(tx?: number) {
    if (tx === undefined) return db;
    const open = transactions.get(tx);
    if (!open) throw ended();
    return open.ready;
  }

  function begin(id: number): Promise<null> {
    let began!: (tx: Tx) => void;
    let failed!: (error: unknown) => void;
    const ready = new Promise<Tx>((resolve, reject) => {
      began = resolve;
      failed = reject;
    });
    // Queries waiting on it get the failure; this answer is only its echo.
    ready.catch(() => {});
    const open: OpenTransaction = { ready };
    transactions.set(id, open);
    db.transaction(
      (tx) =>
        new Promise<void>((commit, rollback) => {
          open.end = (ok) => (ok ? commit() : rollback(new Error("rolled back")));
          began(tx);
        }),
    ).then(
      () => settled(id, undefined),
      (error: unknown) => {
        failed(error); // BEGIN itself failed: the callback never ran
        settled(id, error);
      },
    );
    return ready.then(() => null);
  }

  function settled(id: number, error: unknown) {
    transactions.delete(id);
    const ending = endings.get(id);
    endings.delete(id);
    if (!ending) return;
    // A rollback the caller asked for is its answer, not an error.
    if (error && !(error instanceof Error && error.message === "rolled back")) ending.failed(error);
    else ending.done(null);
  }

  /**
   * The app's statements, prepared once each under a name of their own (decision 097). PGlite's
   * `query` parses, plans and describes a statement every time, in six calls into Postgres; a
   * prepared one is bound and run in one call, with the types of its parameters known from the first
   * time. Only plain reads and writes are prepared (migrations and other commands take PGlite's own
   * path), at most PREPARED_LIMIT of them: past that the least recently used one is closed. A command
   * that may change tables (a migration's DDL, anything not known to leave them be) retires them all,
   * so none outlives a change to the tables it reads.
   */
  const PREPARED_LIMIT = 256;
  const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
  /** Commands that change no table's shape nor the prepared statements (a backup's cursor, for one). */
  const LEAVES_TABLES =
    /^\s*(set|show|declare|fetch|move|close|explain|values|lock|savepoint|release|notify|listen|unlisten|analyze|vacuum|checkpoint)\b/i;
  const prepared = new Map<string, { name: string; paramTypes: number[] }>();
  /** Names retired by a command that may have changed the tables; closed on the next preparation. */
  const retired: string[] = [];
  let statementsNamed = 0;
  const retireAll = () => {
    for (const { name } of prepared.values()) retired.push(name);
    prepared.clear();
  };
  const { serialize } = protocol;
  // PGlite's own locks (its `query` takes both outside a transaction, and only the query lock inside
  // one, where the transaction already holds the other).
  const locks = db as unknown as {
    _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
    _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  };

  async function preparedStatement(sql: string) {
    const known = prepared.get(sql);
    if (known) {
      // Most recently used last: the first in the map is the one to close.
      prepared.delete(sql);
      prepared.set(sql, known);
      return known;
    }
    if (prepared.size >= PREPARED_LIMIT) {
      const [oldestSql, oldest] = prepared.entries().next().value!;
      prepared.delete(oldestSql);
      retired.push(oldest.name);
    }
    // Closes go first: after an error Postgres skips the rest of the batch, and a Close is accepted
    // even inside a failed transaction.
    const parts = retired.splice(0).map((old) => serialize.close({ type: "S", name: old }));
    const name = `app_${++statementsNamed}`;
    parts.push(serialize.parse({ name, text: sql }), serialize.describe({ type: "S", name }), serialize.sync());
    const { messages } = await db.execProtocol(Buffer.concat(parts), { syncToFs: false });
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    prepared.set(sql, statement);
    return statement;
  }

  /**
   * `parseResults` copies every parser it is given into a new object for each result: PGlite's 316 cost
   * about 0.1 ms a statement, most of the time it takes to read a short answer. So it is given only
   * those of this result's columns, as PGlite would choose them (the statement's own, then the
   * database's; it falls back to its defaults itself).
   */
  const NO_PARSERS = Object.freeze({});
  function parsersFor(messages: Parameters<typeof parse.parseResults>[0], own: Record<number, Parser>) {
    const chosen: Record<number, Parser> = {};
    for (const message of messages) {
      if (message.name !== "rowDescription") continue;
      for (const { dataTypeID } of (message as RowDescription).fields) {
        const parser = own[dataTypeID] ?? db.parsers[dataTypeID];
        if (parser) chosen[dataTypeID] = parser;
      }
    }
    return chosen;
  }

  function queryPrepared(
    sql: string,
    params: unknown[],
    options: { rowMode: "array" | "object"; parsers: Record<number, Parser> },
    inTransaction: boolean,
  ) {
    const run = () =>
      locks._runExclusiveQuery(async () => {
        const statement = await preparedStatement(sql);
        // Serialised as PGlite's `query` does it, by the type Postgres expects for each parameter.
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const serializer = db.serializers[statement.paramTypes[i]!];
          return serializer ? serializer(value) : String(value);
        });
        try {
          const { messages } = await db.execProtocol(
            Buffer.concat([
              serialize.bind({ statement: statement.name, values }),
              serialize.describe({ type: "P" }),
              serialize.execute({}),
              serialize.sync(),
            ]),
            { syncToFs: !inTransaction },
          );
          return parse.parseResults(messages, NO_PARSERS, {
            rowMode: options.rowMode,
            parsers: parsersFor(messages, options.parsers),
          })[0]!;
        } catch (error) {
          // A statement whose table changed shape since (26000 cannot happen, but costs nothing):
          // prepared afresh next time.
          const code = (error as { code?: string }).code;
          if (code === "0A000" || code === "26000") prepared.delete(sql);
          throw error;
        }
      });
    return inTransaction ? run() : locks._runExclusiveTransaction(run);
  }

  async function handle(message: { id: number } & Record<string, unknown>): Promise<unknown> {
    switch (message.op) {
      case "query": {
        const client = await target(message.tx as number | undefined);
        const parsers = Object.fromEntries((message.textTypes as number[]).map((oid) => [oid, identity]));
        const sql = message.sql as string;
        const options = { rowMode: message.rowMode as "array" | "object", parsers };
        const preparable = PREPARABLE.test(sql);
        if (!preparable && !LEAVES_TABLES.test(sql)) retireAll();
        const { rows, fields, affectedRows } = preparable
          ? await queryPrepared(sql, message.params as unknown[], options, message.tx !== undefined)
          : await client.query(sql, message.params as unknown[], options);
        return { rows, fields, affectedRows };
      }
      case "exec": {
        // Several commands in one text: any of them may change a table.
        retireAll();
        const client = await target(message.tx as number | undefined);
        const results = await client.exec(message.sql as string);
        return results.map(({ rows, fields, affectedRows }) => ({ rows, fields, affectedRows }));
      }
      case "begin":
        return begin(message.tx as number);
      case "end": {
        const id = message.tx as number;
        const open = transactions.get(id);
        if (!open) throw ended();
        await open.ready;
        return new Promise((done, failed) => {
          endings.set(id, { done, failed });
          open.end!(message.commit as boolean);
        });
      }
      case "listen": {
        const channel = message.channel as string;
        if (!unlisteners.has(channel)) {
          unlisteners.set(
            channel,
            await db.listen(channel, (payload) => port.postMessage({ op: "notify", channel, payload })),
          );
        }
        return null;
      }
      case "unlisten": {
        const stop = unlisteners.get(message.channel as string);
        unlisteners.delete(message.channel as string);
        await stop?.();
        return null;
      }
      case "dump": {
        const tarball = await db.dumpDataDir("none");
        return new Uint8Array(await tarball.arrayBuffer());
      }
      case "close": {
        await db.close();
        return null;
      }
      default:
        throw new Error(`unknown operation ${String(message.op)}`);
    }
  }

  port.on("message", (message: { id: number } & Record<string, unknown>) => {
    // An open transaction's answers have a port of their own, which the main thread reads early.
    const answers = message.tx === undefined ? port : transactionAnswers;
    handle(message).then(
      (result) => answers.postMessage({ id: message.id, ok: true, result }),
      (error: unknown) => answers.postMessage({ id: message.id, ok: false, error: describe(error) }),
    );
  });
  port.postMessage({ op: "ready" });
}
