import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, events, ticketOptions } from "~/db/schema";
import * as editRoute from "~/routes/admin/event-edit";
import { countRows, hostileStrings, RUNS } from "../support/generated";
import { createTestDatabase, testContext } from "../support/test-db";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";

// Generated input for the owner's events form: a signed-in admin's post never makes a server error;
// one the form refuses (4xx) stores and changes nothing; one it accepts redirects to the event.
const BASE = "http://localhost:3000";

let handle: DatabaseHandle;
let adminCookie: string;
beforeAll(async () => {
  handle = await createTestDatabase();
  adminCookie = await signedInOwner(handle);
});
afterAll(() => handle?.close());

/** The answer's status; anything thrown but a Response or data() is the server error this looks for. */
async function run(request: Request, params: Record<string, string>) {
  return (await routeAnswer(() => editRoute.action({ request, params, context: testContext(handle) } as never))).status;
}

const post = (path: string, fields: [string, string][]) => {
  const body = new FormData();
  for (const [k, v] of fields) body.append(k, v);
  return new Request(`${BASE}${path}`, { method: "POST", body, headers: { Origin: BASE, Cookie: adminCookie } });
};

async function snapshot() {
  return JSON.stringify({
    events: await handle.db.select().from(events).orderBy(events.id),
    options: await handle.db.select().from(ticketOptions).orderBy(ticketOptions.id),
    audit: await countRows(handle, adminAuditLog),
  });
}

const OPTION_FIELDS = ["id", "type", "price", "capacity", "from", "until", "remove"];
const FIELDS = [
  "title",
  "starts",
  "ends",
  "location",
  "focus",
  "description",
  "includes",
  "photoSrc",
  "photoAlt",
  ...[0, 1, 2, 20, 21].flatMap((i) => OPTION_FIELDS.map((f) => `option.${i}.${f}`)),
];
const plausible = fc.constantFrom(
  "2025-10-18T10:00",
  "2025-10-18T09:00",
  "2025-02-30T10:00",
  "2025-10-18 10:00",
  "1",
  "2",
  "0",
  "-1",
  "999999999",
  "1e3",
  "300",
  "R 1,500.50",
  "on",
  "off",
  "/images/events/sip-style-1.svg",
  "/images/../secrets.svg",
  "Seat",
  "Indigo",
);
const nasty = hostileStrings({ hugeUpTo: 20_000 });
const value = fc.oneof(nasty, plausible);

/** A valid form to start from, so that one bad field is tried as often as many. */
const validBase: [string, string][] = [
  ["title", "Generated Workshop"],
  ["starts", "2025-10-18T10:00"],
  ["ends", "2025-10-18T13:00"],
  ["location", "Studio"],
  ["focus", "Testing"],
  ["description", "A generated event."],
  ["option.0.type", "Seat"],
  ["option.0.price", "100"],
  ["option.0.capacity", "2"],
];

const anyFields = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 12 })), value), { maxLength: 12 }),
  )
  .map(([fromValid, extra]): [string, string][] => {
    if (!fromValid) return extra;
    const replaced = new Map(extra.map(([k, v]) => [k, v]));
    return [
      ...validBase.map(([k, v]): [string, string] => [k, replaced.get(k) ?? v]),
      ...extra.filter(([k]) => !validBase.some(([b]) => b === k)),
    ];
  });

describe("the events form, generated input from a signed-in admin", () => {
  it(`a new event: never a server error; a refusal is a 4xx that stores nothing (${RUNS} generated inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(anyFields, async (fields) => {
        const before = await snapshot();
        const eventsBefore = await countRows(handle, events);
        const status = await run(post("/admin/events/new", fields), {});
        expect([302, 400, 404, 409]).toContain(status);
        if (status !== 302) expect(await snapshot()).toBe(before);
        else expect(await countRows(handle, events)).toBe(eventsBefore + 1);
      }),
      { numRuns: RUNS },
    );
  }, 600_000);

  it(`an existing event: never a server error; a refusal is a 4xx that changes nothing (${RUNS} generated inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(anyFields, async (fields) => {
        const before = await snapshot();
        // Only saves are generated here: a delete of an event without orders is a valid request.
        const status = await run(
          post("/admin/events/heritage-radiance", [...fields.filter(([k]) => k !== "intent"), ["intent", "save"]]),
          { id: "heritage-radiance" },
        );
        expect([302, 400, 409]).toContain(status);
        if (status !== 302) expect(await snapshot()).toBe(before);
      }),
      { numRuns: RUNS },
    );
  }, 600_000);
});
