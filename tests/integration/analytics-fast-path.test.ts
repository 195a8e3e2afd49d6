import { sql } from "drizzle-orm";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ANALYTICS_EVENTS_PER_SESSION_PER_MINUTE, rowsOf } from "~/analytics/ingest.server";
import type { DatabaseHandle } from "~/db/client.server";
import { analyticsEvents } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { action } from "~/routes/api.analytics";
import { createAnalyticsFastPath } from "../../server/analytics-fast-path";
import { HEADER_NONCE_PLACEHOLDER } from "../../server/page-cache";
import { countRows } from "../support/generated";
import { createTestDatabase, testConfig, testContext } from "../support/test-db";

// The fast path answers POST /api/analytics before Express; whatever it declines must reach the
// route instead. Here a declined request gets 599, so each test can tell which side answered.
let handle: DatabaseHandle;
let server: http.Server;
let base: string;
const clock = fixedClock("2025-09-10T10:00:00+02:00");
// Every post from an address of its own: the per-address budget has its own tests (analytics-address-budget).
let client = 0;
const distinctAddress = () => `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client++ & 255}`;

beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
  const tryIngest = createAnalyticsFastPath(
    { config: testConfig(), database: handle, clock },
    [
      ["Content-Security-Policy", `script-src 'nonce-${HEADER_NONCE_PLACEHOLDER}'`],
      ["X-Content-Type-Options", "nosniff"],
    ],
    distinctAddress,
  );
  server = http.createServer((req, res) => {
    if (!tryIngest(req, res)) res.writeHead(599).end("declined");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await handle?.close();
});
beforeEach(async () => {
  await handle.db.execute(sql`truncate analytics_events`);
});

const BROWSER =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
let sessionCounter = 0;
const event = (overrides: Record<string, unknown> = {}) => ({
  eventType: "page_view",
  pagePath: "/events",
  itemName: null,
  sessionId: `fast-path-session-${sessionCounter++}`,
  referrer: null,
  metadata: null,
  ...overrides,
});

function post(body: string, headers: Record<string, string> = {}, path = "/api/analytics") {
  return fetch(`${base}${path}`, {
    method: "POST",
    body,
    headers: { "Content-Type": "text/plain;charset=UTF-8", "User-Agent": BROWSER, ...headers },
  });
}

const storedCount = () => countRows(handle, analyticsEvents);

describe("the analytics fast path", () => {
  it("stores a plain event and answers 204 with the security headers and no-store", async () => {
    const response = await post(JSON.stringify(event({ pagePath: "/blog" })));
    expect(response.status).toBe(204);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toMatch(/^script-src 'nonce-[A-Za-z0-9+/=]{24}'$/);
    expect(response.headers.get("set-cookie")).toBeNull();
    const rows = await handle.db.execute(sql`select page_path, created_at from analytics_events`);
    expect(rowsOf(rows)).toEqual([{ page_path: "/blog", created_at: expect.anything() }]);
  });

  it.each([
    ["not JSON", "{nope"],
    ["an array", "[]"],
    ["an unknown event type", JSON.stringify({ ...event(), eventType: "hack" })],
    ["a session id with odd characters", JSON.stringify({ ...event(), sessionId: "<script>" })],
    ["an empty body", ""],
    ["a NUL character", JSON.stringify(event({ pagePath: "/a\u0000b" }))],
  ])("answers %s exactly as the route does, storing nothing", async (_name, body) => {
    const fast = await post(body);
    const route = (await action({
      request: new Request("http://localhost/api/analytics", {
        method: "POST",
        body,
        headers: { "User-Agent": BROWSER },
      }),
      context: testContext(handle),
      params: {},
    } as never)) as Response;
    expect(fast.status).toBe(route.status);
    expect(fast.status).toBe(400);
    expect(await fast.json()).toEqual(await route.json());
    expect(fast.headers.get("content-type")).toBe("application/json");
    expect(await storedCount()).toBe(0);
  });

  it("drops bots with 204 and stores nothing", async () => {
    const response = await post(JSON.stringify(event()), {
      "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)",
    });
    expect(response.status).toBe(204);
    expect(await storedCount()).toBe(0);
  });

  it(`keeps the per-session cap of ${ANALYTICS_EVENTS_PER_SESSION_PER_MINUTE} a minute (429)`, async () => {
    const body = JSON.stringify(event({ sessionId: "fast-path-capped" }));
    for (let i = 0; i < ANALYTICS_EVENTS_PER_SESSION_PER_MINUTE; i++) expect((await post(body)).status).toBe(204);
    const over = await post(body);
    expect(over.status).toBe(429);
    expect(((await over.json()) as { error: string }).error).toMatch(/Too many events/);
    expect(await storedCount()).toBe(ANALYTICS_EVENTS_PER_SESSION_PER_MINUTE);
  });

  it.each([
    ["a cookie (it may be a signed-in admin, whose views are dropped)", { Cookie: "honey_admin=x" }, "/api/analytics"],
    ["an Authorization header", { Authorization: "Bearer x" }, "/api/analytics"],
    ["a query string", {}, "/api/analytics?x=1"],
    ["another path", {}, "/api/analytics/"],
  ])("leaves a request with %s to the route", async (_name, headers, path) => {
    const response = await post(JSON.stringify(event()), headers, path);
    expect(response.status).toBe(599);
    expect(await storedCount()).toBe(0);
  });

  it("leaves bodies without a length, and bodies over the event limit, to the route's 411 and 413", async () => {
    const big = await post(JSON.stringify(event({ itemName: "x".repeat(9000) })));
    expect(big.status).toBe(599);
    const chunked = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        `${base}/api/analytics`,
        { method: "POST", headers: { "Transfer-Encoding": "chunked" } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      request.on("error", reject);
      request.end(JSON.stringify(event()));
    });
    expect(chunked).toBe(599);
    expect(await storedCount()).toBe(0);
  });

  it("stores every one of 300 events posted at once, each acknowledged only after it is stored", async () => {
    const responses = await Promise.all(Array.from({ length: 300 }, () => post(JSON.stringify(event()))));
    expect(responses.map((r) => r.status)).toEqual(Array(300).fill(204));
    expect(await storedCount()).toBe(300);
  });

  it("answers 503 with Retry-After when the database is gone, and acknowledges nothing", async () => {
    const down = await createTestDatabase({ seed: false });
    const tryIngest = createAnalyticsFastPath({ config: testConfig(), database: down, clock }, [], distinctAddress);
    await down.close();
    const lonely = http.createServer((req, res) => {
      if (!tryIngest(req, res)) res.writeHead(599).end();
    });
    await new Promise<void>((resolve) => lonely.listen(0, "127.0.0.1", resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(lonely.address() as AddressInfo).port}/api/analytics`, {
        method: "POST",
        body: JSON.stringify(event()),
        headers: { "User-Agent": BROWSER },
      });
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("30");
      expect(((await response.json()) as { error: string }).error).toMatch(/not stored/);
    } finally {
      await new Promise((resolve) => lonely.close(resolve));
    }
  });
});
