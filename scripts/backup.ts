// npm run backup -- [file]     writes a logical backup of the configured database (PGlite or PostgreSQL)
// npm run restore -- file [--replace]   restores one into the configured database (migrated first)
// With PGlite, stop the server first: PGlite's files belong to one process at a time.
import path from "node:path";
import { loadConfig } from "~/config.server";
import { backupDatabase, restoreDatabase } from "~/db/backup.server";
import { openDatabase } from "~/db/client.server";
import { runMigrations } from "~/db/migrate.server";

const [command, ...rest] = process.argv.slice(2);
const replace = rest.includes("--replace");
const fileArg = rest.find((arg) => !arg.startsWith("--"));

const config = loadConfig();
const handle = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: path.join(config.dataDir, "pglite"),
  poolSize: 2,
});
try {
  await runMigrations(handle);
  if (command === "backup") {
    const file = fileArg ?? `backup-${new Date().toISOString().replace(/[:.]/g, "-")}.ndjson`;
    const { tables, rows } = await backupDatabase(handle.db, file);
    console.log(`backup: ${rows} rows from ${tables} tables written to ${file}`);
  } else if (command === "restore") {
    if (!fileArg) throw new Error("usage: npm run restore -- <file> [--replace]");
    const { tables, rows } = await restoreDatabase(handle.db, fileArg, { replace });
    console.log(`restore: ${rows} rows into ${tables} tables from ${fileArg}`);
  } else {
    throw new Error("usage: tsx scripts/backup.ts backup|restore [file] [--replace]");
  }
} catch (error) {
  console.error(`error: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await handle.close();
}
