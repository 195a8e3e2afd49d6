import type { PGlite } from "@electric-sql/pglite";
import { getTableColumns, type Table } from "drizzle-orm";
import type pg from "pg";
import type { Database } from "./client.server";
import type { BatchStatement, PgliteInWorker } from "./pglite-worker.server";

/** A Drizzle query built on the app's database (an insert, an update…), not yet run. */
export interface WriteStatement {
  toSQL(): BatchStatement;
}

/** Date, timestamp, timestamptz and interval: Drizzle reads them from Postgres's text, so they stay text here too. */
const TEXT_TYPES = [1082, 1114, 1184, 1186];

type Row = Record<string, unknown>;

/**
 * Writes that must land together and need nothing from one another's results (ids made in
 * JavaScript), as one transaction. On PGlite's worker the statements travel in one message and run
 * back to back between BEGIN and COMMIT: an interactive transaction holds PGlite, the one
 * connection, across a round trip to the main thread after every statement, and under a crowd that
 * thread answers a few milliseconds late each time while every other request waits (decision 092).
 * On PostgreSQL it is an ordinary transaction on one pooled connection. Returns each statement's
 * rows as Postgres named them; `rowFromDriver` reads a `returning()` row as Drizzle would.
 */
export async function writeTogether(db: Database, statements: WriteStatement[]): Promise<Row[][]> {
  const queries = statements.map((statement) => statement.toSQL());
  const client = (db as unknown as { $client?: unknown }).$client;
  if (isWorker(client)) return (await client.batch(queries, TEXT_TYPES)).map((result) => result.rows as Row[]);
  if (isPool(client)) return writeTogetherOnPool(client, queries);
  if (isPglite(client)) {
    const parsers = Object.fromEntries(TEXT_TYPES.map((oid) => [oid, (value: string) => value]));
    return client.transaction(async (tx) => {
      const results: Row[][] = [];
      for (const { sql, params } of queries) results.push((await tx.query<Row>(sql, params, { parsers })).rows);
      return results;
    });
  }
  throw new Error("writeTogether needs the app's database, not a transaction");
}

async function writeTogetherOnPool(pool: pg.Pool, queries: BatchStatement[]): Promise<Row[][]> {
  // Already loaded when a pool exists (client.server.ts opened it), so this costs nothing.
  const { types: builtIn } = (await import("pg")).default;
  const types = {
    getTypeParser: (oid: number, format?: "text" | "binary") => (TEXT_TYPES.includes(oid) ? (value: string) => value : builtIn.getTypeParser(oid, format)),
  } as pg.CustomTypesConfig;
  const connection = await pool.connect();
  let broken = false;
  try {
    await connection.query("begin");
    const results: Row[][] = [];
    for (const { sql, params } of queries) results.push((await connection.query<Row>({ text: sql, values: params, types })).rows);
    await connection.query("commit");
    return results;
  } catch (error) {
    // A connection that cannot even roll back is not given to the next request.
    await connection.query("rollback").catch(() => (broken = true));
    throw error;
  } finally {
    connection.release(broken);
  }
}

/** A row a `returning()` gave back through `writeTogether`, as Drizzle's own query would have read it. */
export function rowFromDriver<T extends Table>(table: T, raw: Row): T["$inferSelect"] {
  const row: Row = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T["$inferSelect"];
}

function isWorker(client: unknown): client is PgliteInWorker {
  return typeof (client as PgliteInWorker | undefined)?.batch === "function";
}

function isPool(client: unknown): client is pg.Pool {
  return typeof (client as pg.Pool | undefined)?.connect === "function" && "totalCount" in (client as object);
}

function isPglite(client: unknown): client is PGlite {
  return typeof (client as PGlite | undefined)?.transaction === "function" && typeof (client as PGlite).query === "function";
}
