import { sql } from "drizzle-orm";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { analyticsEvents } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { action } from "~/routes/api.analytics";
import { createAnalyticsFastPath } from "../../server/analytics-fast-path";
import { createTestDatabase, testConfig, testContext } from "../support/test-db";

// Issue 22: every optional field of an event may be left out, on both ways in (the route, and the
// server's fast path before Express); a missing required field is refused by name and stores nothing.
let handle: DatabaseHandle;
let server: http.Server;
let base: string;
let client = 0;
// Each post from an address of its own: the per-address budget is not what is tested here.
const distinctAddress = () => `10.9.${(client >> 8) & 255}.${client++ & 255}`;

beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
  const tryIngest = createAnalyticsFastPath(
    { config: testConfig(), database: handle, clock: fixedClock("2025-09-10T10:00:00+02:00") },
    [],
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
let sessions = 0;
const complete = () => ({
  eventType: "product_view",
  pagePath: "/product/candy-earrings",
  itemName: "Candy Earrings",
  sessionId: `fields-session-${sessions++}`,
  referrer: "https://www.google.com/",
  metadata: { source: "card" },
});
type Field = keyof ReturnType<typeof complete>;
const without = (field: Field) => {
  const event: Record<string, unknown> = complete();
  delete event[field];
  return JSON.stringify(event);
};

type Reply = { status: number; body: { error?: string; problems?: string[] } | null };
const readReply = async (response: Response): Promise<Reply> => ({
  status: response.status,
  body: response.status === 204 ? null : ((await response.json()) as Reply["body"]),
});

const WAYS_IN: [string, (body: string) => Promise<Reply>][] = [
  [
    "the route",
    async (body) =>
      readReply(
        (await action({
          request: new Request("http://localhost/api/analytics", {
            method: "POST",
            body,
            headers: { "User-Agent": BROWSER },
          }),
          context: testContext(handle, { clientIp: distinctAddress() }),
          params: {},
        } as never)) as Response,
      ),
  ],
  [
    "the fast path",
    async (body) => {
      const response = await fetch(`${base}/api/analytics`, {
        method: "POST",
        body,
        headers: { "Content-Type": "text/plain;charset=UTF-8", "User-Agent": BROWSER },
      });
      // 599 would mean the fast path declined it and nothing here answered.
      expect(response.status).not.toBe(599);
      return readReply(response);
    },
  ],
];

const storedRows = () => handle.db.select().from(analyticsEvents);

describe.each(WAYS_IN)("POST /api/analytics through %s", (_way, send) => {
  it.each([
    ["itemName", { itemName: null }],
    ["referrer", { referrer: null }],
    ["metadata", { metadata: null }],
  ] as const)("accepts and stores an event without %s (stored as null)", async (field, storedAs) => {
    const reply = await send(without(field));
    expect(reply).toEqual({ status: 204, body: null });
    const rows = await storedRows();
    expect(rows).toHaveLength(1);
    const { eventType, pagePath, itemName, referrer, metadata } = { ...complete(), ...storedAs };
    expect(rows[0]).toMatchObject({ eventType, pagePath, itemName, referrer, metadata });
  });

  it("accepts an event with every optional field left out", async () => {
    const { eventType, pagePath, sessionId } = complete();
    expect(await send(JSON.stringify({ eventType, pagePath, sessionId }))).toEqual({ status: 204, body: null });
    expect(await storedRows()).toEqual([
      expect.objectContaining({ sessionId, itemName: null, referrer: null, metadata: null }),
    ]);
  });

  it.each(["eventType", "pagePath", "sessionId"] as const)(
    "refuses an event without %s: 400 naming the field, nothing stored",
    async (field) => {
      const reply = await send(without(field));
      expect(reply).toEqual({
        status: 400,
        body: { error: "Invalid analytics event", problems: [`${field}: is required`] },
      });
      expect(await storedRows()).toHaveLength(0);
    },
  );

  it.each(["/admin", "/admin/", "/admin/login", "/admin/orders/12", "/Admin/Login"])(
    "drops an event for the owner's page %s with 204 (nothing a client would retry) and stores nothing",
    async (pagePath) => {
      expect(await send(JSON.stringify({ ...complete(), eventType: "page_view", pagePath }))).toEqual({
        status: 204,
        body: null,
      });
      expect(await storedRows()).toHaveLength(0);
    },
  );

  it("still stores a public page whose name only starts with admin", async () => {
    expect((await send(JSON.stringify({ ...complete(), pagePath: "/administrator" }))).status).toBe(204);
    expect(await storedRows()).toHaveLength(1);
  });
});
