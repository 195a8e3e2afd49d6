import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { fixedClock } from "~/lib/clock";
import { createApp } from "../../server/app";
import { permissionsPolicy, securityHeaders } from "../../server/security-headers";
import { createTestDatabase, testConfig } from "../support/test-db";

let handle: DatabaseHandle;
let server: http.Server;
let base: string;

beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
  const app = createApp({ config: testConfig(), database: handle, clock: fixedClock("2025-09-10T10:00:00+02:00") });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await handle?.close();
});

/** Makes the test's database refuse connections (PostgreSQL) and returns how to bring it back. */
async function takeDatabaseDown(): Promise<() => Promise<void>> {
  const pool = handle.raw.pool;
  if (!pool) {
    await handle.close();
    return async () => {};
  }
  const url = new URL(process.env.TEST_DATABASE_URL!);
  const name = new URL(pool.options.connectionString!).pathname.slice(1);
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  await admin.query(`alter database "${name}" allow_connections false`);
  await admin.query(
    "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
    [name],
  );
  return async () => {
    await admin.query(`alter database "${name}" allow_connections true`);
    await admin.end();
  };
}

describe("/healthz", () => {
  it("answers 200 while the database answers, with no caching", async () => {
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  });

  it("answers 503 unhealthy when the database is down, and recovers when it returns", async () => {
    const bringBack = await takeDatabaseDown();
    const down = await fetch(`${base}/healthz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: "unhealthy", database: "unreachable" });
    if (handle.kind === "postgres") {
      await bringBack();
      const up = await fetch(`${base}/healthz`);
      expect(up.status).toBe(200);
    }
  });

  it("sends the security headers on every response", async () => {
    const response = await fetch(`${base}/healthz`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("permissions-policy")).toContain("camera=()");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it("sends exactly helmet's headers, each response with a nonce of its own (decision 098)", async () => {
    const [first, second] = await Promise.all([fetch(`${base}/healthz`), fetch(`${base}/healthz`)]);
    const nonceOf = (response: Response) =>
      /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonceOf(first)).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonceOf(second)).not.toBe(nonceOf(first));

    // What helmet itself sets on a response with the same nonce.
    const expected = new Map<string, string>();
    const res = {
      locals: { nonce: nonceOf(first) },
      setHeader: (name: string, value: unknown) => expected.set(name.toLowerCase(), String(value)),
      removeHeader: (name: string) => expected.delete(name.toLowerCase()),
      getHeader: (name: string) => expected.get(name.toLowerCase()),
    };
    for (const middleware of [securityHeaders(testConfig(), { dev: false }), permissionsPolicy]) {
      middleware({ headers: {}, method: "GET", url: "/", path: "/" } as never, res as never, () => {});
    }
    expect(expected.size).toBeGreaterThan(8);
    for (const [name, value] of expected) expect(first.headers.get(name), name).toBe(value);
  });
});

describe("request body limits", () => {
  it("refuses a declared body over 1 MiB with 413 before reading it", async () => {
    const response = await fetch(`${base}/contact`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "x".repeat(1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
  });

  it("refuses a chunked body without a length with 411", async () => {
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${base}/contact`, { method: "POST", headers: { "transfer-encoding": "chunked" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.write("a=1");
      req.end();
    });
    expect(status).toBe(411);
  });
});
