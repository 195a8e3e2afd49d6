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

async function rowsOf<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

/** Public tables ordered so that every table comes after the tables it references. */
export async function tablesInDependencyOrder(db: Database): Promise<string[]> {
  const tables = (
    await rowsOf<{ name: string }>(
      db,
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
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
      // A cursor reads each table in chunks without OFFSET re-scans.
      await tx.execute(sql`declare backup_rows no scroll cursor for select to_jsonb(t) as row from ${sql.identifier(table)} t`);
      for (;;) {
        const rows = await rowsOf<{ row: Record<string, unknown> }>(
          tx as unknown as Database,
          sql.raw(`fetch forward ${CHUNK_ROWS} from backup_rows`),
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
  await db.transaction(async (tx) => {
    const run = tx as unknown as Database;
    const present = new Set(await tablesInDependencyOrder(run));
    // Opened only now: readline starts emitting at once, and lines emitted before the loop would be lost.
    const lines = readline.createInterface({ input: fs.createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
    for await (const line of lines) {
      if (!line.trim()) continue;
      const parsed = JSON.parse(line) as BackupHeader | ChunkLine;
      if (!header) {
        if ((parsed as BackupHeader).format !== "honey-backup") throw new Error(`${file} is not a backup made by npm run backup`);
        header = parsed as BackupHeader;
        const missing = header.tables.filter((t) => !present.has(t));
        if (missing.length) throw new Error(`the database lacks tables from the backup: ${missing.join(", ")} (newer backup than code?)`);
        const nonEmpty: string[] = [];
        for (const table of header.tables) {
          const [{ n }] = await rowsOf<{ n: number }>(run, sql`select count(*)::int as n from ${sql.identifier(table)}`);
          if (Number(n) > 0) nonEmpty.push(table);
        }
        if (nonEmpty.length && !options.replace) {
          throw new Error(`the database already holds data (${nonEmpty.join(", ")}); pass --replace to overwrite it`);
        }
        if (nonEmpty.length) {
          await run.execute(sql.raw(`truncate ${header.tables.map((t) => `"${t}"`).join(", ")} restart identity cascade`));
        }
        continue;
      }
      const chunk = parsed as ChunkLine;
      if (!header.tables.includes(chunk.table)) throw new Error(`unexpected table ${chunk.table} in backup`);
      await run.execute(
        sql`insert into ${sql.identifier(chunk.table)} select * from jsonb_populate_recordset(null::${sql.identifier(chunk.table)}, ${JSON.stringify(chunk.rows)}::jsonb)`,
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
        sql`select setval(pg_get_serial_sequence(${`"${table}"`}, ${column}), coalesce((select max(${sql.identifier(column)}) from ${sql.identifier(table)}), 0) + 1, false)`,
      );
    }
  });
  return { tables: header!.tables.length, rows: total };
}
