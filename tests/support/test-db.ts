import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import type { AppConfig } from "~/config.server";
import { createAppContext } from "~/context.server";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { runMigrations } from "~/db/migrate.server";
import { seedDatabase } from "~/db/seed.server";
import { fixedClock, type Clock } from "~/lib/clock";
import { dropPostgresDatabases, SCRATCH_LIST } from "./postgres-scratch";

/**
 * A fresh, migrated and seeded database for one test file: in-memory PGlite by default, or the
 * real PostgreSQL in TEST_DATABASE_URL (CI runs the database tests a second time that way; each
 * call then gets its own database created for it).
 *
 * Each is a copy of one built once per test run (decision 095): building one (PGlite's start, the
 * migrations) took seconds and the suite makes some two hundred. PGlite starts from that one's dumped
 * data folder; PostgreSQL creates the database with it as the template. Every test still gets a
 * database of its own.
 */
export async function createTestDatabase(options: { seed?: boolean } = {}): Promise<DatabaseHandle> {
  const seed = options.seed !== false;
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const scratchUrl = await createScratchPostgresDatabase(url, await postgresTemplate(url, seed));
    return droppedOnClose(await openDatabase({ databaseUrl: scratchUrl }), url, scratchUrl);
  }
  // In-memory PGlite on a worker thread, as the server runs it (decision 092).
  return openDatabase({ pgliteWorker: true, pgliteFrom: await pgliteTemplate(seed) });
}

async function build(handle: DatabaseHandle, seed: boolean): Promise<void> {
  await runMigrations(handle);
  if (seed) await seedDatabase(handle.db);
}

/**
 * What `make` returns, made once for the whole run: Vitest runs each test file in a process of its
 * own, so the first process to ask makes it (holding a lock folder) and writes it to this run's
 * template folder; the others wait for the file.
 */
async function madeOnce(name: string, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const file = path.join(inject("templateDir"), name);
  const lock = `${file}.lock`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (fs.existsSync(file)) return fs.readFileSync(file);
    try {
      fs.mkdirSync(lock);
    } catch {
      if (Date.now() > deadline) throw new Error(`no template database after 3 minutes: ${file}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      const made = await make();
      // Written whole, then renamed: a waiting process never reads half a file.
      fs.writeFileSync(`${file}.part`, made);
      fs.renameSync(`${file}.part`, file);
      return made;
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
}

const pgliteTemplates = new Map<boolean, Promise<Uint8Array>>();
const postgresTemplates = new Map<string, Promise<string>>();

function pgliteTemplate(seed: boolean): Promise<Uint8Array> {
  let template = pgliteTemplates.get(seed);
  if (!template) {
    template = madeOnce(`pglite-${seed ? "seeded" : "empty"}.tar`, async () => {
      const handle = await openDatabase({ pgliteWorker: true });
      try {
        await build(handle, seed);
        return await handle.dumpDataDir!();
      } finally {
        await handle.close();
      }
    });
    pgliteTemplates.set(seed, template);
  }
  return template;
}

/** The name of this run's template database on that server. */
function postgresTemplate(url: string, seed: boolean): Promise<string> {
  const key = `${seed} ${url}`;
  let template = postgresTemplates.get(key);
  if (!template) {
    const id = createHash("sha1").update(key).digest("hex").slice(0, 12);
    template = madeOnce(`postgres-${id}.name`, async () => {
      const templateUrl = await createScratchPostgresDatabase(url);
      const handle = await openDatabase({ databaseUrl: templateUrl });
      try {
        await build(handle, seed);
      } finally {
        await handle.close();
      }
      return new TextEncoder().encode(new URL(templateUrl).pathname.slice(1));
    }).then((name) => new TextDecoder().decode(name));
    postgresTemplates.set(key, template);
  }
  return template;
}

let scratchCounter = 0;

/**
 * A scratch database is dropped once its test closes it: a run makes some two hundred copies of the
 * seeded database, 8 MB each, and a developer's server kept every one until its disk filled.
 */
function droppedOnClose(handle: DatabaseHandle, serverUrl: string, scratchUrl: string): DatabaseHandle {
  const close = handle.close.bind(handle);
  return Object.assign(handle, {
    async close() {
      await close();
      await dropPostgresDatabases(serverUrl, [new URL(scratchUrl).pathname.slice(1)]);
    },
  });
}

/** Creates a database next to the one in `url` (empty, or a copy of `template`) and returns its URL. */
async function createScratchPostgresDatabase(url: string, template?: string): Promise<string> {
  const pg = (await import("pg")).default;
  const name = `t_${process.pid}_${Date.now().toString(36)}_${scratchCounter++}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(template ? `create database "${name}" template "${template}"` : `create database "${name}"`);
        break;
      } catch (error) {
        // The template's last connection may still be closing on the server (55006, "being accessed by other users").
        if ((error as { code?: string }).code !== "55006" || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await admin.end();
  }
  fs.appendFileSync(path.join(inject("templateDir"), SCRATCH_LIST), `${name}\n`);
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
): ReturnType<typeof createAppContext> {
  return createAppContext({
    db: handle.db,
    dbHandle: handle,
    config: testConfig(options.config),
    clock: options.clock ?? fixedClock("2025-09-10T10:00:00+02:00"),
    nonce: "test-nonce",
    clientIp: options.clientIp ?? "203.0.113.7",
  });
}
