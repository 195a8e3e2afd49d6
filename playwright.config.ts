import { defineConfig } from "@playwright/test";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { CHROMIUM_PATH } from "./scripts/ensure-chromium.js";

/** A free port on loopback, chosen once: workers inherit it through the environment. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

process.env.E2E_PORT ??= String(await freePort());
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "honey-e2e-"));
process.env.E2E_ADMIN_PASSWORD ??= "e2e-admin-password";
const port = Number(process.env.E2E_PORT);
const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    // Recording a trace costs every test its screenshots and snapshots even when it passes: in CI,
    // where a failure is retried once, only the retry records one (decision 144).
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
    launchOptions: {
      // Debian's headless shell unless CHROMIUM_PATH names another (scripts/ensure-chromium.js, decision 150).
      executablePath: CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    command: "node server.js",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: process.env.E2E_DATA_DIR,
      ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD,
      SITE_URL: baseURL,
      // One pinned clock for date rules: before the sip-style "Normal Price" window opens.
      APP_NOW: process.env.E2E_APP_NOW ?? "2025-09-10T10:00:00+02:00",
      STOCK_HOLD_MINUTES: "15",
    },
  },
});
