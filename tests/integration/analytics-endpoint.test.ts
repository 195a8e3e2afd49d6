import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ANALYTICS_EVENTS_PER_SESSION_PER_MINUTE, SessionEventCap } from "~/analytics/ingest.server";
import type { DatabaseHandle } from "~/db/client.server";
import { analyticsEvents } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { action } from "~/routes/api.analytics";
import { createTestDatabase, testContext } from "../support/test-db";
import { signedInOwner } from "../support/owner";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});
afterAll(() => handle?.close());
beforeEach(async () => {
  await handle.db.execute(sql`truncate analytics_events`);
});

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const SESSION = "3b241101-e2bb-4255-8caf-4136c566a962";
const valid = {
  eventType: "page_view",
  pagePath: "/styled-collections",
  itemName: null,
  sessionId: SESSION,
  referrer: "https://www.google.com/search?q=honey",
  metadata: null,
};

function send(
  body: unknown,
  options: { headers?: Record<string, string>; raw?: boolean; context?: ReturnType<typeof testContext> } = {},
) {
  const request = new Request("http://localhost:3000/api/analytics", {
    method: "POST",
    body: options.raw ? (body as string) : JSON.stringify(body),
    headers: { "Content-Type": "text/plain;charset=UTF-8", "User-Agent": BROWSER, ...options.headers },
  });
  return action({ request, context: options.context ?? testContext(handle), params: {} } as never) as Promise<Response>;
}

const stored = () => handle.db.select().from(analyticsEvents);

describe("POST /api/analytics", () => {
  it("stores a valid event (sent as text/plain by sendBeacon) with 204, no cookie and no IP", async () => {
    const response = await send({ ...valid, metadata: { paymentStatus: "success", amount: 45000, test: true } });
    expect(response.status).toBe(204);
    expect(response.headers.get("set-cookie")).toBeNull();
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      sessionId: SESSION,
      eventType: "page_view",
      pagePath: "/styled-collections",
      referrer: valid.referrer,
      metadata: { paymentStatus: "success", amount: 45000, test: true },
    });
    // The app's clock dates the event.
    expect(rows[0].createdAt.toISOString()).toBe("2025-09-10T08:00:00.000Z");
    expect(JSON.stringify(rows[0])).not.toContain("203.0.113.7");
  });

  it("accepts application/json too", async () => {
    const response = await send(valid, { headers: { "Content-Type": "application/json" } });
    expect(response.status).toBe(204);
  });

  it.each([
    ["not JSON", "{nope", true],
    ["an array", [], false],
    ["an unknown event type", { ...valid, eventType: "hack" }, false],
    ["a path without a leading slash", { ...valid, pagePath: "styled" }, false],
    ["a path over 512 characters", { ...valid, pagePath: `/${"a".repeat(512)}` }, false],
    ["a missing session id", { ...valid, sessionId: undefined }, false],
    ["a session id with odd characters", { ...valid, sessionId: "<script>alert(1)</script>" }, false],
    ["an item name over 200 characters", { ...valid, itemName: "x".repeat(201) }, false],
    ["nested metadata", { ...valid, metadata: { a: { b: 1 } } }, false],
    [
      "metadata over 2 KB",
      { ...valid, metadata: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, "v".repeat(300)])) },
      false,
    ],
  ])("refuses %s with 400 and a JSON error", async (_name, body, raw) => {
    const response = await send(body, { raw: raw as boolean });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBeTruthy();
    expect(await stored()).toHaveLength(0);
  });

  it("refuses a body over 8 KB with 413", async () => {
    const response = await send({ ...valid, itemName: "x".repeat(9000) });
    expect(response.status).toBe(413);
    expect(await stored()).toHaveLength(0);
  });

  it("drops bots silently", async () => {
    const response = await send(valid, {
      headers: { "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" },
    });
    expect(response.status).toBe(204);
    expect(await stored()).toHaveLength(0);
  });

  it("never stores a signed-in admin's own events", async () => {
    const context = testContext(handle);
    const cookie = await signedInOwner(handle);
    const response = await send(valid, { headers: { Cookie: cookie }, context });
    expect(response.status).toBe(204);
    expect(await stored()).toHaveLength(0);
  });

  it(
    `caps a session at ${ANALYTICS_EVENTS_PER_SESSION_PER_MINUTE} events a minute per instance (429), other sessions ` +
      `unaffected, next minute allowed`,
    async () => {
      const clock = fixedClock("2025-09-10T10:00:05+02:00");
      const context = testContext(handle, { clock });
      const capped = { ...valid, sessionId: "capped-session-0001" };
      for (let i = 0; i < ANALYTICS_EVENTS_PER_SESSION_PER_MINUTE; i++) {
        expect((await send(capped, { context })).status).toBe(204);
      }
      const over = await send(capped, { context });
      expect(over.status).toBe(429);
      expect((await send({ ...valid, sessionId: "another-session-id" }, { context })).status).toBe(204);
      expect(await stored()).toHaveLength(ANALYTICS_EVENTS_PER_SESSION_PER_MINUTE + 1);
      clock.set("2025-09-10T10:01:00+02:00");
      expect((await send(capped, { context })).status).toBe(204);
    },
  );
});

describe("SessionEventCap", () => {
  it("keeps counting correctly when it has to forget old sessions", () => {
    const cap = new SessionEventCap(2);
    const t0 = new Date("2025-09-10T08:00:00Z");
    expect(cap.allow("a", t0)).toBe(true);
    expect(cap.allow("a", t0)).toBe(true);
    expect(cap.allow("a", t0)).toBe(false);
    expect(cap.allow("b", t0)).toBe(true);
    expect(cap.allow("a", new Date(t0.getTime() + 60_000))).toBe(true);
  });
});
