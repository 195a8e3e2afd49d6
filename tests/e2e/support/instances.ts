import { expect } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/** A `node server.js` process of the built app, started by a test that needs one of its own. */
export interface Instance {
  process: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export const tempDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "honey-e2e-instance-"));

/** `env` overrides the test's environment; a variable given as undefined is left unset. */
export async function startInstance(env: Record<string, string | undefined> = {}): Promise<Instance> {
  const port = await freePort();
  const merged: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: tempDataDir(),
    ADMIN_PASSWORD: "instance-admin-password",
    ...env,
  };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  const child = spawn("node", ["server.js"], {
    env: merged,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.status, { timeout: 45_000 })
    .toBe(200);
  return {
    process: child,
    base,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** A fresh database on the PostgreSQL server in E2E_PG_URL, and its URL. */
export async function createPostgresDatabase(prefix: string): Promise<{ url: string; name: string }> {
  const admin = new pg.Client({ connectionString: process.env.E2E_PG_URL });
  await admin.connect();
  const name = `${prefix}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(process.env.E2E_PG_URL!);
  url.pathname = `/${name}`;
  return { url: url.toString(), name };
}
