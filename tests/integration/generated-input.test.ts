import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { analyticsEvents, contactSubmissions, emailOutbox } from "~/db/schema";
import { action as analyticsAction } from "~/routes/api.analytics";
import { action as contactAction } from "~/routes/contact";
import type { PgTable } from "drizzle-orm/pg-core";
import { countRows, hostileStrings, RUNS } from "../support/generated";
import { createTestDatabase, testContext } from "../support/test-db";

// Generated bad (and good) input for the public endpoints: whatever arrives, the answer is never a
// server error, an invalid input stores nothing, and a valid one stores exactly what was sent.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});
afterAll(() => handle?.close());

const count = (table: PgTable) => countRows(handle, table);

const nastyString = hostileStrings();

let client = 0;
/** A different visitor each time, so the per-visitor limit does not hide what the action does with input. */
const nextClient = () => `198.51.${Math.floor(client / 250) % 250}.${client++ % 250}`;

describe("contact action, generated input", () => {
  const FIELDS = ["firstName", "lastName", "email", "subject", "message"] as const;
  const anyFields = fc.dictionary(
    fc.oneof(
      fc.constantFrom(...FIELDS, "sessionId", "extra", "__proto__", "constructor"),
      fc.string({ maxLength: 12 }),
    ),
    nastyString,
    { maxKeys: 9 },
  );
  const validFields = fc.record({
    firstName: fc.string({ minLength: 1, maxLength: 60 }).filter((s) => s.trim().length > 0),
    lastName: fc.string({ minLength: 1, maxLength: 60 }).filter((s) => s.trim().length > 0),
    email: fc.emailAddress().filter((e) => e.length <= 254),
    subject: fc.string({ minLength: 1, maxLength: 150, unit: "grapheme" }).filter((s) => s.trim().length > 0),
    message: fc.string({ minLength: 1, maxLength: 2_000, unit: "grapheme" }).filter((s) => s.trim().length > 0),
  });

  function post(fields: Record<string, string>) {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    const request = new Request("http://localhost/contact", {
      method: "POST",
      body,
      headers: { "user-agent": "property-test" },
    });
    return contactAction({
      request,
      context: testContext(handle, { clientIp: nextClient() }),
      params: {},
    } as never) as Promise<{
      data: { ok: boolean; toast: { title: string } };
      init: { status: number } | null;
    }>;
  }

  it(`never fails, and stores only valid messages (${RUNS} generated inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(anyFields, async (fields) => {
        delete (fields as Record<string, string>).website;
        const before = await count(contactSubmissions);
        const result = await post(fields);
        const status = result.init?.status ?? 200;
        expect(status).toBeLessThan(500);
        const after = await count(contactSubmissions);
        if (result.data.ok) {
          expect(after).toBe(before + 1);
          const [row] = await handle.db
            .select()
            .from(contactSubmissions)
            .orderBy(sql`id desc`)
            .limit(1);
          for (const field of FIELDS) expect(row![field]).toBe(fields[field]!.trim());
        } else {
          expect(status).toBe(400);
          expect(after).toBe(before);
        }
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it(`stores exactly what was sent for valid messages (${RUNS} generated inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(validFields, async (fields) => {
        const before = await count(emailOutbox);
        const result = await post(fields);
        expect(result.data.ok).toBe(true);
        const [row] = await handle.db
          .select()
          .from(contactSubmissions)
          .orderBy(sql`id desc`)
          .limit(1);
        expect(row).toMatchObject(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.trim()])));
        expect(await count(emailOutbox)).toBe(before + 1);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);
});

describe("analytics endpoint, generated input", () => {
  const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
  const TYPES = [
    "page_view",
    "product_view",
    "event_view",
    "consultation_booking",
    "contact_form_submit",
    "checkout_attempted",
  ];
  const sessionId = fc.stringMatching(/^[A-Za-z0-9_-]{8,64}$/);
  const validEvent = fc.record({
    eventType: fc.constantFrom(...TYPES),
    pagePath: fc.string({ maxLength: 200 }).map((s) => `/${s}`),
    itemName: fc.option(fc.string({ minLength: 1, maxLength: 200 }), { nil: null }),
    sessionId,
    referrer: fc.option(fc.webUrl(), { nil: null }),
    metadata: fc.option(
      fc.dictionary(
        fc.string({ minLength: 1, maxLength: 20 }).filter((key) => key !== "__proto__"),
        fc.oneof(fc.string({ maxLength: 50 }), fc.integer(), fc.boolean()),
        { maxKeys: 5 },
      ),
      { nil: null },
    ),
  });
  /** Valid events with one field broken, JSON of every shape, and text that is not JSON at all. */
  const anyBody = fc.oneof(
    validEvent.chain((event) =>
      fc
        .constantFrom(...Object.keys(event))
        .chain((key) =>
          fc
            .oneof(fc.anything(), nastyString, fc.integer({ min: -1e12, max: 1e12 }))
            .map((value) => JSON.stringify({ ...event, [key]: value })),
        ),
    ),
    fc.jsonValue().map((value) => JSON.stringify(value)),
    nastyString,
    fc.constantFrom("{", "[]", "null", '{"eventType":', "\u0000", '{"__proto__":{"polluted":true}}'),
  );

  let sent = 0;
  let posts = 0;
  function send(body: string) {
    const request = new Request("http://localhost:3000/api/analytics", {
      method: "POST",
      body,
      headers: { "Content-Type": "text/plain;charset=UTF-8", "User-Agent": BROWSER },
    });
    // Each event from an address of its own, as from many visitors: one address has a budget of 300 a minute.
    const clientIp = `10.${(posts >> 16) & 255}.${(posts >> 8) & 255}.${posts++ & 255}`;
    return analyticsAction({
      request,
      context: testContext(handle, { clientIp }),
      params: {},
    } as never) as Promise<Response>;
  }

  it(`never fails, and stores an event only when it answers 204 (${RUNS} generated inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(anyBody, async (body) => {
        const before = await count(analyticsEvents);
        const response = await send(body);
        expect([204, 400, 413, 429]).toContain(response.status);
        expect(await count(analyticsEvents)).toBe(before + (response.status === 204 ? 1 : 0));
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it("refuses a metadata key it could not store as sent (__proto__), storing nothing", async () => {
    const before = await count(analyticsEvents);
    const body = '{"eventType":"page_view","pagePath":"/","sessionId":"proto-key-test","metadata":{"__proto__":""}}';
    expect((await send(body)).status).toBe(400);
    expect(await count(analyticsEvents)).toBe(before);
  });

  it(`stores exactly what was sent for valid events (${RUNS} generated inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(validEvent, async (generated) => {
        // Generated ids repeat often; a fresh one each time keeps the per-session cap out of this property.
        const event = { ...generated, sessionId: `s${sent++}-${generated.sessionId}`.slice(0, 64) };
        const response = await send(JSON.stringify(event));
        expect(response.status).toBe(204);
        const [row] = await handle.db
          .select()
          .from(analyticsEvents)
          .orderBy(sql`id desc`)
          .limit(1);
        expect(row).toMatchObject({
          sessionId: event.sessionId,
          eventType: event.eventType,
          pagePath: event.pagePath,
          itemName: event.itemName || null,
          referrer: event.referrer || null,
        });
        expect(row!.metadata ?? null).toEqual(
          event.metadata && Object.keys(event.metadata).length ? event.metadata : (event.metadata ?? null),
        );
      }),
      { numRuns: RUNS },
    );
  }, 300_000);
});
