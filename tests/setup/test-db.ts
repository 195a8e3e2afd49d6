import type { AppConfig } from "~/config.server";
import type { AppContext } from "~/context.server";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { runMigrations } from "~/db/migrate.server";
import { seedDatabase } from "~/db/seed.server";
import { fixedClock, type Clock } from "~/lib/clock";

/**
 * A fresh, migrated and seeded database for one test file: in-memory PGlite by default, or the
 * real PostgreSQL in TEST_DATABASE_URL (CI runs the database tests a second time that way; each
 * call then gets its own schema-free database created for it).
 */
export async function createTestDatabase(options: { seed?: boolean } = {}): Promise<DatabaseHandle> {
  const url = process.env.TEST_DATABASE_URL;
  let handle: DatabaseHandle;
  if (url) {
    handle = await openDatabase({ databaseUrl: await createScratchPostgresDatabase(url) });
  } else {
    // In-memory PGlite on a worker thread, as the server runs it (decision 092).
    handle = await openDatabase({ pgliteWorker: true });
  }
  await runMigrations(handle);
  if (options.seed !== false) await seedDatabase(handle.db);
  return handle;
}

let scratchCounter = 0;

/** Creates an empty database next to the one in `url` and returns its URL. */
async function createScratchPostgresDatabase(url: string): Promise<string> {
  const pg = (await import("pg")).default;
  const name = `t_${process.pid}_${Date.now().toString(36)}_${scratchCounter++}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return scratch.toString();
}

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    env: "test",
    isProduction: false,
    isDeployment: false,
    port: 0,
    host: "127.0.0.1",
    databasePoolSize: 10,
    dataDir: "/tmp/honey-test",
    sessionSecret: "test-session-secret-test-session-secret",
    adminPassword: "test-admin-password",
    siteUrl: "http://localhost:3000",
    trustProxy: false,
    payment: {
      provider: "simulator",
      yocoApiBase: "http://127.0.0.1:1",
      simulatorWebhookSecret: "whsec_dGVzdC1zaW11bGF0b3Itc2VjcmV0LTEyMzQ1Ng==",
      stockHoldMinutes: 15,
    },
    mail: { from: "Shop <shop@example.test>", ownerEmail: "owner@example.test" },
    ...overrides,
  };
}

/** The `context` loaders and actions receive, around a test database. */
export function testContext(
  handle: DatabaseHandle,
  options: { config?: Partial<AppConfig>; clock?: Clock; clientIp?: string } = {},
): AppContext {
  return {
    db: handle.db,
    dbHandle: handle,
    config: testConfig(options.config),
    clock: options.clock ?? fixedClock("2025-09-10T10:00:00+02:00"),
    nonce: "test-nonce",
    clientIp: options.clientIp ?? "203.0.113.7",
  };
}
