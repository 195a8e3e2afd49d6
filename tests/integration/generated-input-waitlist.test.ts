import fc from "fast-check";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { ticketOptions, waitlistEntries } from "~/db/schema";
import * as joinRoute from "~/routes/waiting-list";
import { joinWaitlistSchema } from "~/waitlist/join-schema";
import { countRows, hostileStrings, RUNS } from "../support/generated";
import { routeAnswer } from "../support/route-answer";
import { createTestDatabase, testContext } from "../support/test-db";

// Generated input for the public join form: a post the schema refuses gets a 4xx with a message for a
// field and stores nothing; an option that is not shown is a 404; nothing is ever a server error.
const BASE = "http://localhost:3000";

let handle: DatabaseHandle;
let optionId: number;
let shownIds: Set<string>;
beforeAll(async () => {
  handle = await createTestDatabase();
  // No seats at all: the workshop's session is sold out, so its list is open.
  const [option] = await handle.db
    .update(ticketOptions)
    .set({ capacity: 0 })
    .where(eq(ticketOptions.eventId, "tablecloth-workshop"))
    .returning();
  optionId = option!.id;
  shownIds = new Set((await handle.db.select({ id: ticketOptions.id }).from(ticketOptions)).map((o) => String(o.id)));
});
afterAll(() => handle?.close());

const join = (id: string, fields: [string, string][]) => {
  const body = new URLSearchParams(fields);
  const request = new Request(`${BASE}/waiting-list/${encodeURIComponent(id)}`, { method: "POST", body });
  return routeAnswer(() =>
    joinRoute.action({ request, params: { optionId: id }, context: testContext(handle) } as never),
  );
};

const field = fc.oneof(
  hostileStrings({ extra: ["1", "4", "5", "0", "-1", "1.5", "a@b.co", "thandi@example.com", " "] }),
  fc.constant(""),
);

describe("generated input: joining a waiting list", () => {
  it("bad fields get a 4xx with a field message and store nothing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ name: field, email: field, seats: field }, { requiredKeys: [] }),
        fc.array(fc.tuple(fc.constantFrom("name", "email", "seats", "extra"), field), { maxLength: 3 }),
        async (values, extra) => {
          const fields = [...Object.entries(values), ...extra] as [string, string][];
          const form = new URLSearchParams(fields);
          const read = { name: form.get("name") ?? "", email: form.get("email") ?? "", seats: form.get("seats") ?? "" };
          fc.pre(!joinWaitlistSchema.safeParse(read).success);
          const before = await countRows(handle, waitlistEntries);
          const answer = await join(String(optionId), fields);
          expect(answer.status).toBe(400);
          expect(Object.keys(answer.body.fieldErrors).some((k) => ["name", "email", "seats"].includes(k))).toBe(true);
          expect(await countRows(handle, waitlistEntries)).toBe(before);
        },
      ),
      { numRuns: Math.min(RUNS, 300) },
    );
  });

  it("an option id that is not a shown option is a 404 and stores nothing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileStrings(), fc.integer({ min: 0, max: 2 ** 31 }).map(String)), async (id) => {
        fc.pre(!shownIds.has(id));
        const answer = await join(id, [
          ["name", "Thandi"],
          ["email", "thandi@example.com"],
          ["seats", "1"],
        ]);
        expect(answer.status).toBe(404);
        expect(await countRows(handle, waitlistEntries)).toBe(0);
      }),
      { numRuns: Math.min(RUNS, 200) },
    );
  });
});
