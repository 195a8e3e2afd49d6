import { clientAddressKey } from "~/lib/client-address.server";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import type { ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureAdminPassword } from "~/admin/password.server";
import { ConfigError, loadConfig } from "~/config.server";
import { backupDatabase } from "~/db/backup.server";
import type { DatabaseHandle } from "~/db/client.server";
import { adminSessions, analyticsEvents, contactSubmissions, stockHolds } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { holdClientKey } from "~/stock/holds.server";
import { createRequestListener } from "../../server/app";
import { listenOnLoopback, testViteServer } from "../support/dev-server";
import { createTestDatabase, testConfig } from "../support/test-db";
import { buyer } from "../support/checkout";
import { signedInOwner } from "../support/owner";

// Issue 23, the outside security review: each finding reproduced through HTTP against the app
// listening on 127.0.0.1 (decision 079). The app's clock is pinned; the request deadlines are
// shortened so a trickled body can be shown without waiting 30 s.

const PASSWORD = "review-admin-password";
const NOW = "2025-09-10T10:00:00+02:00";
const clock = fixedClock(NOW);
const DEADLINES = { anonymousMs: 1_500, adminMs: 8_000 };

let handle: DatabaseHandle;
let vite: ViteDevServer;
let server: http.Server;
let base: string;
let port: number;
const config = testConfig({
  // What an operator behind one nginx writes: TRUST_PROXY=1, through the real parser.
  trustProxy: loadConfig({ TRUST_PROXY: "1", DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "honey-review-")) })
    .trustProxy,
});

beforeAll(async () => {
  handle = await createTestDatabase();
  await ensureAdminPassword(handle.db, { adminPassword: PASSWORD, isProduction: false });
  // The routes come from Vite's module graph, as under `npm run dev`; the page cache and the
  // analytics fast path are switched on as in production.
  vite = await testViteServer();
  server = http.createServer(
    createRequestListener({ config, database: handle, clock }, { vite, pageCache: true, requestDeadlines: DEADLINES }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await vite?.close();
  await handle?.close();
});

/** What nginx sends on: the client's own header, with the address nginx saw appended. */
const forwarded = (written: string, real: string) => ({ "X-Forwarded-For": `${written}, ${real}` });

const signedInCookie = () => signedInOwner(handle, { config, userAgent: "review" });

describe("behind one proxy, the client address is the one the proxy saw", () => {
  it("refuses TRUST_PROXY=true at start, saying what to write instead", () => {
    let problems: string[] = [];
    try {
      loadConfig({ TRUST_PROXY: "true", DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "honey-review-")) });
    } catch (error) {
      if (error instanceof ConfigError) problems = error.problems;
    }
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^TRUST_PROXY: .*1 for one nginx or Caddy/);
  });

  it("locks out eight wrong passwords sent with forged X-Forwarded-For addresses", async () => {
    const statuses: number[] = [];
    for (let n = 1; n <= 8; n++) {
      const response = await fetch(`${base}/admin/login`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "User-Agent": "review",
          ...forwarded(`198.51.100.${n}`, "203.0.113.99"),
        },
        body: new URLSearchParams({ password: `wrong-guess-${n}` }),
      });
      statuses.push(response.status);
    }
    // Five wrong guesses are allowed in the window; every attempt after them is refused unchecked.
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    // Another real address behind the same proxy is not locked out.
    const other = await fetch(`${base}/admin/login`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "User-Agent": "review",
        ...forwarded("198.51.100.1", "203.0.113.100"),
      },
      body: new URLSearchParams({ password: PASSWORD }),
    });
    expect(other.status).toBe(302);
  });

  it("limits contact messages by the address the proxy saw, whatever the client wrote", async () => {
    const statuses: number[] = [];
    for (let n = 1; n <= 7; n++) {
      const response = await fetch(`${base}/contact`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          ...forwarded(`198.51.100.${n}`, "203.0.113.98"),
        },
        body: new URLSearchParams({
          firstName: "Rae",
          lastName: "View",
          email: "rae@example.com",
          subject: "Hello",
          message: `Message ${n}`,
        }),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });
});

describe("one client cannot hold every unit without paying", () => {
  function checkout(type: string, item: string, real: string) {
    return fetch(`${base}/checkout?${new URLSearchParams({ type, item })}`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...forwarded("192.0.2.1", real) },
      body: new URLSearchParams({ ...buyer, type, item }),
    });
  }

  it("ten checkouts of Candy Earrings from one address: three held, seven refused with the Checkout Error toast", async () => {
    const responses = [];
    for (let i = 0; i < 10; i++) responses.push(await checkout("product", "Candy Earrings", "203.0.113.50"));
    expect(responses.map((r) => r.status)).toEqual([302, 302, 302, 400, 400, 400, 400, 400, 400, 400]);
    const page = await responses[3]!.text();
    expect(page).toContain("Checkout Error");
    expect(page).toContain("Candy Earrings: 3 are already waiting for payment from you, the most one buyer can hold.");
    expect(page).toContain("unpaid checkouts are released after 15 minutes");
    // Someone else can still buy, and the table holds keyed hashes, never the address.
    expect((await checkout("product", "Candy Earrings", "203.0.113.51")).status).toBe(302);
    const keys = await handle.db.select({ key: stockHolds.clientKey }).from(stockHolds);
    expect(keys.length).toBe(4);
    for (const { key } of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
  });

  it("five units in all; a paid order does not count", async () => {
    const workshop = "Transform Tablecloth into Wrap Around Skirt";
    expect((await checkout("workshop", workshop, "203.0.113.50")).status).toBe(302);
    expect((await checkout("workshop", workshop, "203.0.113.50")).status).toBe(302);
    const refused = await checkout("workshop", workshop, "203.0.113.50");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("You already have 5 items waiting for payment");
    // One of them paid (its hold converted): room for one more.
    const mine = holdClientKey(clientAddressKey("203.0.113.50"), config.sessionSecret);
    const [paid] = await handle.db
      .select({ id: stockHolds.id })
      .from(stockHolds)
      .where(and(eq(stockHolds.clientKey, mine), eq(stockHolds.status, "held")))
      .limit(1);
    await handle.db.update(stockHolds).set({ status: "converted" }).where(eq(stockHolds.id, paid!.id));
    expect((await checkout("workshop", workshop, "203.0.113.50")).status).toBe(302);
  });
});

describe("analytics from one address are bounded", () => {
  const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
  const event = (overrides: Record<string, unknown> = {}) =>
    JSON.stringify({
      eventType: "page_view",
      pagePath: "/",
      sessionId: `s-${randomBytes(8).toString("hex")}`,
      metadata: null,
      ...overrides,
    });
  const post = (body: string, real: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/analytics`, {
      method: "POST",
      body,
      headers: { "User-Agent": BROWSER, ...forwarded("192.0.2.7", real), ...headers },
    });
  const stored = async () =>
    Number((await handle.db.select({ n: sql<number>`count(*)::int` }).from(analyticsEvents))[0]!.n);

  /** Posts fresh-session events from one address, 50 at a time, until refused; returns the counts. */
  async function flood(real: string, headers: Record<string, string> = {}) {
    const startMinute = Math.floor(Date.now() / 60_000);
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 700 && refused === 0; i += 50) {
      const statuses = await Promise.all(
        Array.from({ length: 50 }, () => post(event(), real, headers).then((r) => r.status)),
      );
      accepted += statuses.filter((s) => s === 204).length;
      refused += statuses.filter((s) => s === 429).length;
    }
    return { accepted, refused, sameMinute: Math.floor(Date.now() / 60_000) === startMinute };
  }

  for (const [path, headers] of [
    ["the fast path", {}],
    // A request with a cookie is declined by the fast path and reaches the route.
    ["the route", { Cookie: "theme=dark" }],
  ] as const) {
    it(`a flood with fresh session ids gets 429 after 300 events a minute (${path})`, async () => {
      const real = path === "the route" ? "203.0.113.63" : "203.0.113.60";
      const probe = await post(event(), "203.0.113.59", headers);
      expect(probe.status, await probe.text()).toBe(204);
      const before = await stored();
      const { accepted, refused, sameMinute } = await flood(real, headers);
      // The budget counts real minutes: a flood that straddles a minute may get 300 more.
      if (sameMinute) expect(accepted).toBe(300);
      else expect(accepted).toBeLessThanOrEqual(600);
      expect(refused).toBeGreaterThan(0);
      expect(await stored()).toBe(before + accepted);
      expect((await post(event(), real, headers)).status).toBe(429);
      // Another address behind the same proxy is not affected.
      expect((await post(event(), "203.0.113.61", headers)).status).toBe(204);
    });
  }

  it("refuses a path over 512 characters and metadata over 1 KB, storing nothing", async () => {
    const before = await stored();
    const long = await post(event({ pagePath: `/${"a".repeat(512)}` }), "203.0.113.62");
    expect(long.status).toBe(400);
    const big = await post(
      event({ metadata: { note: "x".repeat(500), more: "y".repeat(500), third: "z".repeat(100) } }),
      "203.0.113.62",
    );
    expect(big.status).toBe(400);
    expect(JSON.stringify(await big.json())).toContain("1024 bytes");
    expect(await stored()).toBe(before);
    expect(
      (
        await post(
          event({ pagePath: `/${"a".repeat(511)}`, metadata: { note: "x".repeat(450), more: "y".repeat(450) } }),
          "203.0.113.62",
        )
      ).status,
    ).toBe(204);
  });
});

describe("admin responses are never cached", () => {
  it("sends Cache-Control: no-store on /admin.data, /admin/login and a CSV export", async () => {
    const cookie = await signedInCookie();
    for (const [url, headers] of [
      ["/admin.data", { Cookie: cookie }],
      ["/admin.data", {}],
      ["/admin/login", {}],
      ["/admin/export/contacts", { Cookie: cookie }],
      ["/admin", { Cookie: cookie }],
    ] as const) {
      const response = await fetch(`${base}${url}`, { redirect: "manual", headers });
      expect([200, 202, 204, 302], url).toContain(response.status);
      expect(response.headers.get("cache-control"), url).toBe("no-store");
      await response.arrayBuffer();
    }
  });
});

describe("the admin's contact table", () => {
  it("links a visitor's address a?cc=attacker@evil.example to that one address", async () => {
    await handle.db.insert(contactSubmissions).values({
      firstName: "Mallory",
      lastName: "Cc",
      email: "a?cc=attacker@evil.example",
      subject: "Hello",
      message: "Hi",
      createdAt: new Date(NOW),
    });
    const page = await (await fetch(`${base}/admin`, { headers: { Cookie: await signedInCookie() } })).text();
    expect(page).toContain('href="mailto:a%3Fcc%3Dattacker@evil.example"');
    expect(page).not.toContain('href="mailto:a?cc=');
  });
});

describe("a session lasts at most 12 hours from its creation", () => {
  async function plant(createdAt: Date, expiresAt: Date) {
    const token = randomBytes(32).toString("base64url");
    await handle.db
      .insert(adminSessions)
      .values({ idHash: createHash("sha256").update(token).digest("hex"), createdAt, expiresAt });
    return `admin_session=${token}`;
  }

  it("refuses a planted session with a far expiry, made 13 hours ago or in the future", async () => {
    const now = new Date(NOW).getTime();
    const far = new Date("2099-01-01T00:00:00Z");
    for (const createdAt of [new Date(now - 13 * 3600_000), new Date(now + 24 * 3600_000)]) {
      const response = await fetch(`${base}/admin`, {
        redirect: "manual",
        headers: { Cookie: await plant(createdAt, far) },
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toMatch(/\/admin\/login$/);
    }
    const recent = await fetch(`${base}/admin`, {
      redirect: "manual",
      headers: { Cookie: await plant(new Date(now - 3600_000), far) },
    });
    expect(recent.status).toBe(200);
  });
});

describe("backups", () => {
  it("are written 0600 even over an existing world-readable file", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "honey-backup-mode-")), "backup.ndjson");
    fs.writeFileSync(file, "old", { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    await backupDatabase(handle.db, file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const fresh = `${file}.new`;
    await backupDatabase(handle.db, fresh);
    expect(fs.statSync(fresh).mode & 0o777).toBe(0o600);
  });
});

describe("a request body must arrive in time", () => {
  /** Sends the headers, then one byte of a 100-byte body every 200 ms; resolves with what came back and when. */
  function trickle(url: string, cookie?: string): Promise<{ answer: string; afterMs: number; closed: boolean }> {
    return new Promise((resolve) => {
      const started = Date.now();
      const socket = net.connect(port, "127.0.0.1");
      let answer = "";
      let sent = 0;
      const timer = setInterval(() => {
        if (sent < 100 && !socket.destroyed) {
          socket.write("a");
          sent++;
        }
      }, 200);
      socket.on("data", (chunk) => (answer += chunk));
      const finish = (closed: boolean) => {
        clearInterval(timer);
        resolve({ answer, afterMs: Date.now() - started, closed });
      };
      socket.on("close", () => finish(true));
      socket.on("error", () => {});
      socket.write(
        [
          `POST ${url} HTTP/1.1`,
          `Host: 127.0.0.1:${port}`,
          "Content-Type: application/x-www-form-urlencoded",
          "Content-Length: 100",
          ...(cookie ? [`Cookie: ${cookie}`] : []),
          "",
          "",
        ].join("\r\n"),
      );
      // Stop watching after the admin's deadline: whatever is still open by then was allowed to be.
      setTimeout(() => {
        socket.destroy();
      }, DEADLINES.anonymousMs + 2_500);
    });
  }

  it("closes an anonymous trickled body after the deadline with 408, on public and admin paths", async () => {
    for (const result of await Promise.all([
      trickle("/checkout"),
      trickle("/admin/login", "admin_session=not-a-session-token-at-all-x"),
    ])) {
      expect(result.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(result.afterMs).toBeGreaterThanOrEqual(DEADLINES.anonymousMs - 50);
      expect(result.afterMs).toBeLessThan(DEADLINES.anonymousMs + 1_500);
    }
  });

  it("lets a signed-in owner's upload on an /admin/ path take longer", async () => {
    const result = await trickle("/admin/login", await signedInCookie());
    expect(result.answer).not.toMatch(/408/);
    expect(result.afterMs).toBeGreaterThanOrEqual(DEADLINES.anonymousMs + 2_000);
  });
});

describe("sessions end when the password changes", () => {
  it("a restart with a new ADMIN_PASSWORD closes /admin and the CSV exports to the old cookie", async () => {
    const { createRuntime } = await import("../../server/runtime");
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "honey-review-restart-"));
    const env = { DATA_DIR: dataDir, APP_NOW: NOW, ADMIN_PASSWORD: "first-password-1" };
    async function start(password: string) {
      const runtime = await createRuntime({ ...env, ADMIN_PASSWORD: password }, () => {});
      const instance = http.createServer(createRequestListener(runtime, { vite }));
      const url = await listenOnLoopback(instance);
      return {
        url,
        stop: async () => {
          instance.closeAllConnections();
          await new Promise((resolve) => instance.close(resolve));
          await runtime.database.close();
        },
      };
    }
    const first = await start("first-password-1");
    const login = await fetch(`${first.url}/admin/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ password: "first-password-1" }),
    });
    expect(login.status).toBe(302);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";", 1)[0]!)
      .find((c) => c.startsWith("admin_session="))!;
    expect((await fetch(`${first.url}/admin`, { redirect: "manual", headers: { Cookie: cookie } })).status).toBe(200);
    await first.stop();

    const second = await start("second-password-2");
    try {
      const dashboard = await fetch(`${second.url}/admin`, { redirect: "manual", headers: { Cookie: cookie } });
      expect(dashboard.status).toBe(302);
      expect(dashboard.headers.get("location")).toMatch(/\/admin\/login$/);
      const csv = await fetch(`${second.url}/admin/export/contacts`, {
        redirect: "manual",
        headers: { Cookie: cookie },
      });
      expect(csv.status).not.toBe(200);
      expect(csv.headers.get("content-type") ?? "").not.toContain("text/csv");
    } finally {
      await second.stop();
    }
  }, 60_000);
});
