import path from "node:path";
import { ensureAdminPassword } from "~/admin/password.server";
import { loadConfig, type AppConfig, type LoadConfigOptions } from "~/config.server";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { runMigrations } from "~/db/migrate.server";
import { seedDatabase } from "~/db/seed.server";
import { seedDemoWorkshop } from "~/events/demo-workshop.server";
import { fixedClock, systemClock, type Clock } from "~/lib/clock";

export interface Runtime {
  config: AppConfig;
  database: DatabaseHandle;
  clock: Clock;
}

/**
 * Everything the server needs before it listens: validated configuration, an open and migrated
 * database with the seed content, and an admin password (printed once when generated).
 */
export async function createRuntime(
  env: Record<string, string | undefined> = process.env,
  log: (line: string) => void = (line) => console.log(line),
  options: LoadConfigOptions = {},
): Promise<Runtime> {
  const config = loadConfig(env, options);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    poolSize: config.databasePoolSize,
    pgliteDir: path.join(config.dataDir, "pglite"),
    pgliteWorker: true,
  });
  const clock = config.fixedNow ? fixedClock(config.fixedNow) : systemClock;
  try {
    await runMigrations(database);
    await seedDatabase(database.db);
    await seedDemoWorkshop(database.db, config, clock);
    const { generatedPassword } = await ensureAdminPassword(database.db, {
      adminPassword: config.adminPassword,
      isProduction: config.isDeployment,
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
