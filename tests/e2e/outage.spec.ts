import { expect, test } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

// A second app instance on a real PostgreSQL whose database we can take away and give back.
const PG_URL = process.env.E2E_PG_URL;
test.skip(!PG_URL, "needs a PostgreSQL server: set E2E_PG_URL (CI does)");

let app: ChildProcess | undefined;
let admin: pg.Client;
let base = "";
const dbName = `outage_${Date.now().toString(36)}`;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function setConnections(allowed: boolean) {
  await admin.query(`alter database "${dbName}" allow_connections ${allowed}`);
  if (!allowed) {
    await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1", [dbName]);
  }
}

test.beforeAll(async () => {
  admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database "${dbName}"`);
  const url = new URL(PG_URL!);
  url.pathname = `/${dbName}`;
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = spawn("node", ["server.js"], {
    env: {
      ...process.env,
      DATABASE_URL: url.toString(),
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "honey-outage-")),
      ADMIN_PASSWORD: "outage-admin-password",
    },
    stdio: "ignore",
  });
  await expect
    .poll(async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.status, { timeout: 30_000 })
    .toBe(200);
});

test.afterAll(async () => {
  app?.kill("SIGTERM");
  await setConnections(true).catch(() => {});
  await admin?.end();
});

test("with the database gone, pages show the error screen with 503 and /healthz is unhealthy; then it recovers", async ({ page }) => {
  expect((await page.goto(`${base}/styled-collections`))?.status()).toBe(200);

  await setConnections(false);
  const response = await page.goto(`${base}/styled-collections`);
  expect(response?.status()).toBe(503);
  await expect(page.getByRole("heading", { name: "Unexpected Application Error!" })).toBeVisible();
  expect((await fetch(`${base}/healthz`)).status).toBe(503);

  await setConnections(true);
  await expect.poll(async () => (await fetch(`${base}/healthz`)).status, { timeout: 15_000 }).toBe(200);
  expect((await page.goto(`${base}/styled-collections`))?.status()).toBe(200);
});
