import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { consentRecords, newsletterRecipients, newsletters, subscribers } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { unsubscribeToken } from "~/newsletters/unsubscribe-links.server";
import * as unsubscribe from "~/routes/newsletter-unsubscribe";
import { get } from "../support/account";
import { createTestDatabase, testConfig, testContext } from "../support/test-db";

// Issue 42: RFC 8058 one-click unsubscribe, with no session, and the page that offers to come back.

let handle: DatabaseHandle;
const clock = fixedClock("2025-09-10T10:00:00+02:00");
const context = () => testContext(handle, { clock });
const secret = testConfig().sessionSecret;

beforeEach(async () => {
  await handle?.close();
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

async function recipient(email: string) {
  const [letter] = await handle.db
    .insert(newsletters)
    .values({ title: "New pieces", body: "Hello", segment: { kind: "subscribers" }, status: "sent" })
    .returning();
  const [row] = await handle.db
    .insert(newsletterRecipients)
    .values({ newsletterId: letter!.id, email, basis: "consent" })
    .returning();
  await handle.db.insert(subscribers).values({ email, status: "subscribed" });
  return { letter: letter!, token: unsubscribeToken(secret, { kind: "r", id: row!.id }) };
}

/** What a mail app sends for its Unsubscribe button: no cookie, no Origin, the RFC 8058 body. */
function oneClick(token: string, body = "List-Unsubscribe=One-Click") {
  const request = new Request(`http://localhost:3000/newsletter/unsubscribe/${token}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
  return unsubscribe.action({ request, context: context(), params: { token } } as never) as Promise<{
    init: ResponseInit;
    data: { done: string | null };
  }>;
}

describe("one-click unsubscribe", () => {
  it("a POST to the List-Unsubscribe URL unsubscribes without a session, once, counted for the newsletter", async () => {
    const { letter, token } = await recipient("nomsa@example.test");
    const answer = await oneClick(token);
    expect(answer.init.status).toBe(200);
    expect(answer.data.done).toBe("unsubscribed");
    expect(await handle.db.select().from(subscribers)).toMatchObject([{ status: "unsubscribed" }]);
    await oneClick(token);
    const consents = await handle.db.select().from(consentRecords);
    expect(consents).toMatchObject([
      {
        action: "withdrawn",
        form: "unsubscribe",
        wording: "List-Unsubscribe=One-Click",
        confirmedBy: expect.stringContaining("one-click"),
        newsletterId: letter.id,
      },
    ]);
  });

  it("the page offers to come back, and coming back is kept as evidence too", async () => {
    const { token } = await recipient("sipho@example.test");
    expect(
      (await get(unsubscribe.loader, context(), `/newsletter/unsubscribe/${token}`, undefined, { token })).body,
    ).toEqual({ valid: true, unsubscribed: false });
    await oneClick(token, "intent=unsubscribe");
    expect(
      (await get(unsubscribe.loader, context(), `/newsletter/unsubscribe/${token}`, undefined, { token })).body,
    ).toEqual({ valid: true, unsubscribed: true });
    const back = await oneClick(token, "intent=subscribe-again");
    expect(back.data.done).toBe("subscribed");
    expect(await handle.db.select().from(subscribers)).toMatchObject([{ status: "subscribed" }]);
    expect(await handle.db.select().from(consentRecords).orderBy(consentRecords.id)).toMatchObject([
      { action: "withdrawn", confirmedBy: expect.stringContaining("unsubscribe page") },
      { action: "given", confirmedBy: expect.stringContaining("subscribe-again") },
    ]);
  });

  it("a forged or altered link changes nothing", async () => {
    const { token } = await recipient("thabo@example.test");
    for (const bad of [token.replace(/.$/, (c) => (c === "0" ? "1" : "0")), "r1.nothex", "s999.x", ""]) {
      expect((await oneClick(bad)).init.status).toBe(404);
      const page = await get(unsubscribe.loader, context(), `/newsletter/unsubscribe/${bad}`, undefined, {
        token: bad,
      });
      expect(page.status).toBe(404);
    }
    expect(await handle.db.select().from(subscribers)).toMatchObject([{ status: "subscribed" }]);
    expect(await handle.db.select().from(consentRecords)).toEqual([]);
  });
});
