import { sql } from "drizzle-orm";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { DatabaseHandle } from "./client.server";

/** Arbitrary constant: instances starting together on one PostgreSQL migrate one at a time. */
const MIGRATION_LOCK_ID = 727_274_001;

/** The committed drizzle-kit migrations, found from the source tree or from the built bundle. */
export function migrationsFolder(): string {
  if (process.env.MIGRATIONS_DIR) return path.resolve(process.env.MIGRATIONS_DIR);
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, "drizzle");
    if (fs.existsSync(path.join(candidate, "meta", "_journal.json"))) return candidate;
    dir = path.dirname(dir);
  }
  const fromCwd = path.resolve("drizzle");
  if (fs.existsSync(path.join(fromCwd, "meta", "_journal.json"))) return fromCwd;
  throw new Error("cannot find the drizzle/ migrations folder (set MIGRATIONS_DIR)");
}

/** The newest committed migration's timestamp (drizzle-kit's `when` in the journal). */
export function newestMigrationMillis(folder: string = migrationsFolder()): number {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  return Math.max(0, ...journal.entries.map((entry) => entry.when));
}

/**
 * True when the database already has every committed migration: one read of Drizzle's own
 * bookkeeping, no lock, no DDL. Drizzle applies a migration when its `when` is newer than the newest
 * row there, so with the newest one recorded it would do nothing. A migration commits with its row,
 * so seeing the row means seeing the migration. False on a new database (no such table yet).
 */
export async function migrationsAreCurrent(
  handle: DatabaseHandle,
  folder: string = migrationsFolder(),
): Promise<boolean> {
  try {
    const result = await handle.db.execute(
      sql`select max(created_at)::text as newest from "drizzle"."__drizzle_migrations"`,
    );
    const newest = (result as unknown as { rows: { newest: string | null }[] }).rows[0]?.newest;
    return newest != null && Number(newest) >= newestMigrationMillis(folder);
  } catch {
    return false;
  }
}

/**
 * Brings the schema up to date. A database that already is (every start but the first after a
 * release) costs one read; otherwise Drizzle's migrator runs, on PostgreSQL under an advisory lock
 * so instances starting together migrate one at a time (the second finds nothing left to do).
 */
export async function runMigrations(handle: DatabaseHandle): Promise<void> {
  const folder = migrationsFolder();
  if (await migrationsAreCurrent(handle, folder)) return;
  if (handle.kind === "pglite") {
    const { migrate: migratePglite } = await import("drizzle-orm/pglite/migrator");
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: folder });
    return;
  }
  const [{ migrate: migrateNodePg }, { drizzle: drizzleNodePg }] = await Promise.all([
    import("drizzle-orm/node-postgres/migrator"),
    import("drizzle-orm/node-postgres"),
  ]);
  const client = await handle.raw.pool!.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await migrateNodePg(drizzleNodePg(client), { migrationsFolder: folder });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
    client.release();
  }
}
