import { sql } from "drizzle-orm";
import fs from "node:fs";
import readline from "node:readline";
import type { Database } from "./client.server";

/**
 * Logical backups that work the same on PGlite and PostgreSQL (and move data between them):
 * newline-delimited JSON, one header line then chunks of rows per table, tables in foreign-key
 * order. Restoring runs into a migrated, empty database.
 */
export interface BackupHeader {
  format: "honey-backup";
  version: 1;
  createdAt: string;
  tables: string[];
}

interface ChunkLine {
  table: string;
  rows: Record<string, unknown>[];
}

const CHUNK_ROWS = 1000;
/** Tables with raw bytes (photos of a few MB each) are read a few rows at a time, so a line stays small. */
const CHUNK_ROWS_WITH_BYTES = 8;

/**
 * A bytea value in a backup: base64 under this key. `to_jsonb` would write PostgreSQL's hex text,
 * twice the bytes' size; base64 is a third more. Older backups' hex strings still restore as they are.
 */
const BYTEA_MARKER = "$bytea";

async function byteaColumns(db: Database, table: string): Promise<string[]> {
  const rows = await rowsOf<{ name: string }>(
    db,
    sql`select column_name as name from information_schema.columns
        where table_schema = 'public' and table_name = ${table} and data_type = 'bytea' order by ordinal_position`,
  );
  return rows.map((r) => r.name);
}

/** `to_jsonb(t)` with each bytea column replaced by `{"$bytea": "<base64>"}`. */
/** A table's columns that hold stored values (not generated ones), in table order. */
async function storedColumns(db: Database, table: string): Promise<string[]> {
  const rows = await rowsOf<{ name: string }>(
    db,
    sql`select column_name as name from information_schema.columns
        where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER' order by ordinal_position`,
  );
  return rows.map((r) => r.name);
}

function rowAsJson(columns: string[]) {
  if (!columns.length) return sql`to_jsonb(t)`;
  // Literals rather than parameters: the query becomes a cursor, and names come from the catalog.
  const literal = (text: string) => sql.raw(`'${text.replace(/'/g, "''")}'`);
  const replaced = columns.map(
    (column) =>
      sql`${literal(column)}, jsonb_build_object(${literal(BYTEA_MARKER)},
        translate(encode(t.${sql.identifier(column)}, 'base64'), E'\n', ''))`,
  );
  return sql`to_jsonb(t) || jsonb_build_object(${sql.join(replaced, sql`, `)})`;
}

/**
 * Turns the bytea columns' base64 markers back into the text form jsonb_populate_recordset reads as
 * bytea. Only those columns: a jsonb column may hold anything a visitor sent, markers included.
 */
function decodeByteaMarkers(rows: Record<string, unknown>[], columns: string[]): Record<string, unknown>[] {
  for (const row of rows) {
    for (const column of columns) {
      const value = row[column] as Record<string, unknown> | null | undefined;
      if (value && typeof value === "object" && typeof value[BYTEA_MARKER] === "string") {
        row[column] = `\\x${Buffer.from(value[BYTEA_MARKER], "base64").toString("hex")}`;
      }
    }
  }
  return rows;
}

async function rowsOf<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

/** Public tables ordered so that every table comes after the tables it references. */
export async function tablesInDependencyOrder(db: Database): Promise<string[]> {
  const tables = (
    await rowsOf<{ name: string }>(
      db,
      sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    )
  ).map((r) => r.name);
  const edges = await rowsOf<{ child: string; parent: string }>(
    db,
    sql`select distinct c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
        from pg_constraint c join pg_namespace n on n.oid = c.connamespace
        where c.contype = 'f' and n.nspname = 'public'`,
  );
  const strip = (name: string) => name.replace(/^public\./, "").replace(/"/g, "");
  const parents = new Map<string, Set<string>>(tables.map((t) => [t, new Set<string>()]));
  for (const edge of edges) {
    const child = strip(edge.child);
    const parent = strip(edge.parent);
    if (child !== parent) parents.get(child)?.add(parent);
  }
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)));
    if (!ready.length) throw new Error("foreign keys form a cycle; cannot order tables for backup");
    for (const t of ready) {
      ordered.push(t);
      placed.add(t);
    }
  }
  return ordered;
}

export async function backupDatabase(db: Database, file: string): Promise<{ tables: number; rows: number }> {
  const tables = await tablesInDependencyOrder(db);
  // It holds the password hash, session hashes and customers' phone numbers: owner-only, like
  // secrets.json. fchmod too, since opening an existing file keeps its old mode.
  const fd = fs.openSync(file, "w", 0o600);
  fs.fchmodSync(fd, 0o600);
  const out = fs.createWriteStream(file, { fd, encoding: "utf8" });
  const write = (line: object) =>
    new Promise<void>((resolve, reject) => {
      out.write(`${JSON.stringify(line)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  const header: BackupHeader = { format: "honey-backup", version: 1, createdAt: new Date().toISOString(), tables };
  await write(header);
  let total = 0;
  // One snapshot for the whole backup, so rows referencing each other stay consistent.
  await db.transaction(async (tx) => {
    await tx.execute(sql`set transaction isolation level repeatable read, read only`);
    for (const table of tables) {
      const bytes = await byteaColumns(tx as unknown as Database, table);
      // A cursor reads each table in chunks without OFFSET re-scans.
      await tx.execute(
        sql`declare backup_rows no scroll cursor for select ${rowAsJson(bytes)} as row from ${sql.identifier(table)} t`,
      );
      for (;;) {
        const rows = await rowsOf<{ row: Record<string, unknown> }>(
          tx as unknown as Database,
          sql.raw(`fetch forward ${bytes.length ? CHUNK_ROWS_WITH_BYTES : CHUNK_ROWS} from backup_rows`),
        );
        if (!rows.length) break;
        await write({ table, rows: rows.map((r) => r.row) } satisfies ChunkLine);
        total += rows.length;
      }
      await tx.execute(sql`close backup_rows`);
    }
  });
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return { tables: tables.length, rows: total };
}

export async function restoreDatabase(
  db: Database,
  file: string,
  options: { replace?: boolean } = {},
): Promise<{ tables: number; rows: number }> {
  if (!fs.existsSync(file)) throw new Error(`${file} does not exist`);
  let header: BackupHeader | undefined;
  let total = 0;
  const byteaByTable = new Map<string, string[]>();
  const storedByTable = new Map<string, string[]>();
  await db.transaction(async (tx) => {
    const run = tx as unknown as Database;
    const present = new Set(await tablesInDependencyOrder(run));
    // Opened only now: readline starts emitting at once, and lines emitted before the loop would be lost.
    const lines = readline.createInterface({
      input: fs.createReadStream(file, { encoding: "utf8" }),
      crlfDelay: Infinity,
    });
    for await (const line of lines) {
      if (!line.trim()) continue;
      const parsed = JSON.parse(line) as BackupHeader | ChunkLine;
      if (!header) {
        if ((parsed as BackupHeader).format !== "honey-backup")
          throw new Error(`${file} is not a backup made by npm run backup`);
        header = parsed as BackupHeader;
        const missing = header.tables.filter((t) => !present.has(t));
        if (missing.length)
          throw new Error(`the database lacks tables from the backup: ${missing.join(", ")} (newer backup than code?)`);
        const nonEmpty: string[] = [];
        for (const table of header.tables) {
          const [{ n }] = await rowsOf<{ n: number }>(
            run,
            sql`select count(*)::int as n from ${sql.identifier(table)}`,
          );
          if (Number(n) > 0) nonEmpty.push(table);
        }
        if (nonEmpty.length && !options.replace) {
          throw new Error(`the database already holds data (${nonEmpty.join(", ")}); pass --replace to overwrite it`);
        }
        if (nonEmpty.length) {
          await run.execute(
            sql.raw(`truncate ${header.tables.map((t) => `"${t}"`).join(", ")} restart identity cascade`),
          );
        }
        continue;
      }
      const chunk = parsed as ChunkLine;
      if (!header.tables.includes(chunk.table)) throw new Error(`unexpected table ${chunk.table} in backup`);
      if (!byteaByTable.has(chunk.table)) byteaByTable.set(chunk.table, await byteaColumns(run, chunk.table));
      if (!storedByTable.has(chunk.table)) storedByTable.set(chunk.table, await storedColumns(run, chunk.table));
      // Generated columns (orders.customer_search) are left out: the database computes them again.
      const columns = sql.join(
        storedByTable.get(chunk.table)!.map((c) => sql.identifier(c)),
        sql`, `,
      );
      const rowsJson = JSON.stringify(decodeByteaMarkers(chunk.rows, byteaByTable.get(chunk.table)!));
      await run.execute(
        sql`insert into ${sql.identifier(chunk.table)} (${columns})
          select ${columns} from jsonb_populate_recordset(null::${sql.identifier(chunk.table)}, ${rowsJson}::jsonb)`,
      );
      total += chunk.rows.length;
    }
    if (!header) throw new Error(`${file} is empty`);
    // Serial columns continue after the restored ids.
    const serials = await rowsOf<{ table_name: string; column_name: string }>(
      run,
      sql`select table_name, column_name from information_schema.columns where table_schema = 'public' and column_default like 'nextval(%'`,
    );
    for (const { table_name: table, column_name: column } of serials) {
      await run.execute(
        sql`select setval(pg_get_serial_sequence(${`"${table}"`}, ${column}),
          coalesce((select max(${sql.identifier(column)}) from ${sql.identifier(table)}), 0) + 1, false)`,
      );
    }
  });
  return { tables: header!.tables.length, rows: total };
}
