import { inArray } from "drizzle-orm";
import path from "node:path";
import { ADMIN_HASH_KEY, ensureAdminPassword, startAdminPasswordCheck } from "~/admin/password.server";
import { loadConfig, type AppConfig, type LoadConfigOptions } from "~/config.server";
import { openDatabase, type Database, type DatabaseHandle } from "~/db/client.server";
import { runMigrations } from "~/db/migrate.server";
import { appSettings } from "~/db/schema";
import { SEEDED_KEY, seedDatabase } from "~/db/seed.server";
import { DEMO_WORKSHOP_KEY, seedDemoWorkshop } from "~/events/demo-workshop.server";
import { fixedClock, systemClock, type Clock } from "~/lib/clock";

export interface Runtime {
  config: AppConfig;
  database: DatabaseHandle;
  clock: Clock;
}

/** The settings rows that record what an earlier start already did, read in one query. */
async function readStartupSettings(db: Database): Promise<Map<string, string>> {
  const rows = await db
    .select({ key: appSettings.key, value: appSettings.value })
    .from(appSettings)
    .where(inArray(appSettings.key, [SEEDED_KEY, DEMO_WORKSHOP_KEY, ADMIN_HASH_KEY]));
  return new Map(rows.map((row) => [row.key, row.value]));
}

/**
 * Everything the server needs before it listens: validated configuration, an open and migrated
 * database with the seed content, and an admin password (printed once when generated).
 *
 * On a database that has all this already (every start but the first), it costs one read of the
 * migrations' bookkeeping and one of three settings rows, and the check of ADMIN_PASSWORD against the
 * stored hash (one scrypt) runs while the database opens (decision 090).
 */
export async function createRuntime(
  env: Record<string, string | undefined> = process.env,
  log: (line: string) => void = (line) => console.log(line),
  options: LoadConfigOptions = {},
): Promise<Runtime> {
  const config = loadConfig(env, options);
  const passwordCheck = config.adminPassword
    ? startAdminPasswordCheck(config.adminPassword, config.dataDir)
    : undefined;
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    poolSize: config.databasePoolSize,
    pgliteDir: path.join(config.dataDir, "pglite"),
    pgliteWorker: true,
  });
  const clock = config.fixedNow ? fixedClock(config.fixedNow) : systemClock;
  try {
    await runMigrations(database);
    const done = await readStartupSettings(database.db);
    // Each is decided once per database and skips itself when done; the read above spares a transaction each.
    if (!done.has(SEEDED_KEY)) await seedDatabase(database.db, clock.now());
    if (!done.has(DEMO_WORKSHOP_KEY)) await seedDemoWorkshop(database.db, config, clock);
    const { generatedPassword } = await ensureAdminPassword(database.db, {
      adminPassword: config.adminPassword,
      isProduction: config.isDeployment,
      stored: done.get(ADMIN_HASH_KEY),
      check: passwordCheck,
    });
    if (generatedPassword) {
      const lines = [
        `Admin password (shown once): ${generatedPassword}`,
        "Sign in at /admin/login. Set ADMIN_PASSWORD to choose your own.",
      ];
      const width = Math.max(...lines.map((line) => line.length));
      const rule = "─".repeat(width + 2);
      log(["", `  ┌${rule}┐`, ...lines.map((line) => `  │ ${line.padEnd(width)} │`), `  └${rule}┘`, ""].join("\n"));
    }
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  log(`[db] ${database.kind === "pglite" ? `PGlite at ${path.join(config.dataDir, "pglite")}` : "PostgreSQL"} ready`);
  return { config, database, clock };
}
