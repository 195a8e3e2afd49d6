import { PGlite } from "@electric-sql/pglite";
import { expect, test } from "./support/test";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { startInstance as start, tempDataDir } from "./support/instances";

// Whole-process behaviour of `node server.js`: restarts, SIGTERM and SIGKILL, each on its own data folder.
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const startInstance = (dataDir: string, env: Record<string, string> = {}) => start({ DATA_DIR: dataDir, ...env });

function pageView(sessionId: string, i: number) {
  return {
    eventType: "page_view",
    pagePath: `/lifecycle/${i}`,
    itemName: null,
    sessionId,
    referrer: null,
    metadata: null,
  };
}

async function countRows(dataDir: string, query: string): Promise<number> {
  const db = new PGlite(path.join(dataDir, "pglite"));
  try {
    const result = await db.query<{ n: number }>(query);
    return Number(result.rows[0].n);
  } finally {
    await db.close();
  }
}

test("a first start prints the admin password once; a second start keeps the data and prints nothing", async () => {
  const dataDir = tempDataDir();
  const first = await startInstance(dataDir, { ADMIN_PASSWORD: "" });
  expect(first.output()).toContain("Admin password (shown once):");
  const secrets = fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8");
  first.process.kill("SIGTERM");
  expect(await first.exited).toBe(0);
  const catalogCount = await countRows(dataDir, "select count(*)::int as n from catalog_items");
  expect(catalogCount).toBeGreaterThan(0);

  const second = await startInstance(dataDir, { ADMIN_PASSWORD: "" });
  expect(second.output()).not.toContain("Admin password");
  expect(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8")).toBe(secrets);
  second.process.kill("SIGTERM");
  expect(await second.exited).toBe(0);
  expect(await countRows(dataDir, "select count(*)::int as n from catalog_items")).toBe(catalogCount);
});

test("SIGTERM: stops accepting, finishes the request in flight, closes the database and exits 0", async () => {
  const dataDir = tempDataDir();
  const instance = await startInstance(dataDir);
  const { port } = new URL(instance.base);
  const body = JSON.stringify(pageView(randomUUID(), 1));

  // A request whose body is still arriving when the signal comes.
  const socket = net.connect(Number(port), "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  let reply = "";
  socket.on("data", (chunk) => (reply += chunk));
  socket.write(
    `POST /api/analytics HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nUser-Agent: Mozilla/5.0 ` +
      `(X11; Linux x86_64) Chrome/120\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
  );
  socket.write(body.slice(0, 10));
  await new Promise((resolve) => setTimeout(resolve, 200));

  instance.process.kill("SIGTERM");
  await expect.poll(() => instance.output(), { timeout: 5_000 }).toContain("SIGTERM");
  // New connections are refused once the server stopped listening.
  await expect
    .poll(
      async () =>
        fetch(`${instance.base}/healthz`).then(
          () => "answered",
          () => "refused",
        ),
      { timeout: 5_000 },
    )
    .toBe("refused");

  socket.write(body.slice(10));
  await expect.poll(() => reply, { timeout: 5_000 }).toMatch(/^HTTP\/1\.1 2\d\d/);
  socket.end();
  expect(await instance.exited).toBe(0);
  expect(
    await countRows(dataDir, "select count(*)::int as n from analytics_events where page_path = '/lifecycle/1'"),
  ).toBe(1);
});

test("PGlite killed with SIGKILL during writes reopens with every acknowledged row", async () => {
  const dataDir = tempDataDir();
  const instance = await startInstance(dataDir);
  const sessionId = randomUUID();
  let acknowledged = 0;
  let stop = false;
  const writers = Array.from({ length: 8 }, async (_, w) => {
    for (let i = 0; !stop; i++) {
      const ok = await fetch(`${instance.base}/api/analytics`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120" },
        body: JSON.stringify({ ...pageView(sessionId, w * 100_000 + i), sessionId: randomUUID() }),
      }).then(
        (response) => response.status >= 200 && response.status < 300,
        () => false,
      );
      if (ok) acknowledged++;
    }
  });
  await expect.poll(() => acknowledged, { timeout: 20_000 }).toBeGreaterThan(50);
  instance.process.kill("SIGKILL");
  stop = true;
  await Promise.all(writers);
  await instance.exited;

  const restarted = await startInstance(dataDir);
  restarted.process.kill("SIGTERM");
  expect(await restarted.exited).toBe(0);
  const stored = await countRows(
    dataDir,
    "select count(*)::int as n from analytics_events where page_path like '/lifecycle/%'",
  );
  expect(stored).toBeGreaterThanOrEqual(acknowledged);
});
