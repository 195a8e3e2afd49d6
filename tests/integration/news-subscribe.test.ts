import { eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { consentRecords, emailOutbox, orders, subscribers } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { keyedHash } from "~/lib/keyed-hash.server";
import { createMemberSession } from "~/memberships/member-session.server";
import { NEWS_CONSENT_WORDING, SIGN_UP_WORDING } from "~/newsletters/sign-up-schema";
import * as account from "~/routes/account";
import * as confirm from "~/routes/newsletter-confirm";
import * as subscribe from "~/routes/newsletter-subscribe";
import { cookiePair, get, memberWithPayment, post } from "../support/account";
import { createTestDatabase, testContext, testConfig } from "../support/test-db";

// Issue 42: sign-up with double opt-in, and each consent kept as evidence.

let handle: DatabaseHandle;
const clock = fixedClock("2025-09-10T10:00:00+02:00");
const context = (clientIp = "203.0.113.7") => testContext(handle, { clock, clientIp });
const secret = testConfig().sessionSecret;

beforeEach(async () => {
  await handle?.close();
  handle = await createTestDatabase();
  clock.set("2025-09-10T10:00:00+02:00");
});
afterAll(() => handle?.close());

const signUp = (fields: Record<string, string>, ip?: string) =>
  post(subscribe.action, context(ip), "/newsletter/subscribe", { form: "footer", page: "/about", ...fields });

const tokenFrom = (text: string) => /\/newsletter\/confirm\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];

async function everything() {
  return {
    subscribers: await handle.db.select().from(subscribers),
    consents: await handle.db.select().from(consentRecords).orderBy(consentRecords.id),
    emails: await handle.db.select().from(emailOutbox).orderBy(emailOutbox.id),
  };
}

describe("sign-up in the footer and on /blog", () => {
  it("emails a confirmation link and subscribes only when it is used, keeping the consent as evidence", async () => {
    const answer = await signUp({ name: "Lindiwe Mokoena-Van der Merwe", email: "  Lindiwe@Example.TEST " });
    expect(answer.status).toBe(200);
    expect(answer.body.ok).toBe(true);

    let state = await everything();
    expect(state.subscribers).toMatchObject([{ email: "lindiwe@example.test", status: "pending" }]);
    expect(state.consents).toMatchObject([
      { action: "asked", wording: SIGN_UP_WORDING, form: "footer", page: "/about" },
    ]);
    expect(state.emails).toHaveLength(1);
    expect(state.emails[0]).toMatchObject({ toAddress: "lindiwe@example.test", bodyExpiresOnSend: true });
    const token = tokenFrom(state.emails[0]!.textBody)!;
    expect(token).toBeTruthy();

    // Opening the link (a mail scanner, or her) shows a button and changes nothing.
    const page = await get(confirm.loader, context(), `/newsletter/confirm?token=${token}`);
    expect(page.body.valid).toBe(true);
    expect((await everything()).subscribers[0]!.status).toBe("pending");

    clock.set("2025-09-10T11:30:00+02:00");
    const done = await post(confirm.action, context(), "/newsletter/confirm", { token });
    expect(done.body.confirmed).toBe(true);
    state = await everything();
    expect(state.subscribers[0]).toMatchObject({ status: "subscribed", confirmTokenHash: null });
    const given = state.consents[1]!;
    expect(given).toMatchObject({
      action: "given",
      wording: SIGN_UP_WORDING,
      form: "footer",
      page: "/about",
      confirmedBy: "confirmation link in an email to the address",
      addressHash: keyedHash(secret, "consent", "lindiwe@example.test"),
    });
    expect(given.at.toISOString()).toBe("2025-09-10T09:30:00.000Z");
    // The evidence holds a keyed hash, never the address.
    expect(JSON.stringify(state.consents)).not.toContain("lindiwe");

    // The link works once.
    expect((await post(confirm.action, context(), "/newsletter/confirm", { token })).body.confirmed).toBe(false);
  });

  it("refuses an expired link", async () => {
    await signUp({ name: "", email: "late@example.test" });
    const token = tokenFrom((await everything()).emails[0]!.textBody)!;
    clock.set("2025-09-17T10:00:01+02:00");
    expect((await get(confirm.loader, context(), `/newsletter/confirm?token=${token}`)).body.valid).toBe(false);
    expect((await post(confirm.action, context(), "/newsletter/confirm", { token })).status).toBe(400);
    expect((await everything()).subscribers[0]!.status).toBe("pending");
  });

  it("subscribes an existing customer at once, and tells her with the way out", async () => {
    await handle.db.insert(orders).values({
      reference: "HB-CUST01",
      orderType: "product",
      itemName: "Patchwork jacket",
      amountCents: 65000,
      customerFirstName: "Zanele",
      customerLastName: "Khumalo",
      customerEmail: "Zanele@example.test",
      customerPhone: "082 555 0100",
      customerAddress: "12 Long Street, Cape Town",
      provider: "simulator",
      idempotencyKey: "news-test-1",
      status: "paid",
    });
    await signUp({ name: "Zanele", email: "zanele@example.test", form: "blog", page: "/blog" });
    const state = await everything();
    expect(state.subscribers).toMatchObject([{ status: "subscribed" }]);
    expect(state.consents).toMatchObject([
      { action: "given", form: "blog", page: "/blog", confirmedBy: expect.stringContaining("existing customer") },
    ]);
    expect(state.emails).toHaveLength(1);
    expect(state.emails[0]!.headers).toMatchObject({ "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    expect(state.emails[0]!.textBody).toContain("/newsletter/unsubscribe/s");
  });

  it("answers the same for an address already subscribed, and sends nothing more", async () => {
    await signUp({ email: "twice@example.test" });
    const token = tokenFrom((await everything()).emails[0]!.textBody)!;
    await post(confirm.action, context(), "/newsletter/confirm", { token });
    const again = await signUp({ email: "twice@example.test" }, "203.0.113.8");
    expect(again.body).toEqual((await signUp({ email: "other@example.test" }, "203.0.113.9")).body);
    const state = await everything();
    expect(state.emails.filter((e) => e.toAddress === "twice@example.test")).toHaveLength(1);
    expect(state.subscribers.find((s) => s.email === "twice@example.test")!.status).toBe("subscribed");
  });

  const bad: [string, Record<string, string>, string][] = [
    ["an empty address", { email: "" }, "Please enter your email address."],
    ["an address that is not one", { email: "not-an-address" }, "Please enter a valid email address."],
    ["a name too long", { email: "ok@example.test", name: "N".repeat(101) }, "Name must be at most 100 characters."],
    [
      "an unknown form",
      { email: "ok@example.test", form: "admin" },
      "Please sign up with the form in the footer or on the blog.",
    ],
    ["a page off the site", { email: "ok@example.test", page: "https://evil.test/" }, "The page could not be read."],
  ];
  for (const [what, fields, message] of bad) {
    it(`refuses ${what} with a field message and changes nothing`, async () => {
      const answer = await signUp(fields);
      expect(answer.status).toBe(400);
      expect(Object.values(answer.body.fieldErrors)).toContain(message);
      const state = await everything();
      expect([state.subscribers, state.consents, state.emails]).toEqual([[], [], []]);
    });
  }

  it("limits sign-ups from one connection", async () => {
    for (let i = 0; i < 5; i++) expect((await signUp({ email: `n${i}@example.test` })).status).toBe(200);
    const sixth = await signUp({ email: "n6@example.test" });
    expect(sixth.status).toBe(429);
    expect((await everything()).subscribers).toHaveLength(5);
  });
});

describe("the news box on /account", () => {
  it("is unticked until she ticks it; ticking and unticking are each kept as evidence", async () => {
    const { member } = await memberWithPayment(handle, {
      email: "amahle@example.test",
      name: "Amahle Dube",
      reference: "HB-AMAHLE1",
    });
    const cookie = cookiePair(await createMemberSession(handle.db, context(), member.id));
    expect((await get(account.loader, context(), "/account", cookie)).body.news).toBeNull();

    const ticked = await post(account.action, context(), "/account", { intent: "news", news: "on" }, cookie);
    expect(ticked.body).toMatchObject({ intent: "news", ok: true });
    expect((await get(account.loader, context(), "/account", cookie)).body.news).toBe("subscribed");
    // A signed-in member proved her address: no confirmation email.
    expect((await everything()).emails).toHaveLength(0);

    const unticked = await post(account.action, context(), "/account", { intent: "news" }, cookie);
    expect(unticked.body.ok).toBe(true);
    const consents = (await everything()).consents;
    expect(consents).toMatchObject([
      { action: "given", form: "account", page: "/account", wording: NEWS_CONSENT_WORDING },
      { action: "withdrawn", form: "account", page: "/account", wording: NEWS_CONSENT_WORDING },
    ]);
    // Saving the same choice again records nothing.
    await post(account.action, context(), "/account", { intent: "news" }, cookie);
    expect((await everything()).consents).toHaveLength(2);
  });

  it("refuses a box value that is not a tick and changes nothing", async () => {
    const { member } = await memberWithPayment(handle, {
      email: "b@example.test",
      name: "B Bee",
      reference: "HB-B0001",
    });
    const cookie = cookiePair(await createMemberSession(handle.db, context(), member.id));
    const answer = await post(account.action, context(), "/account", { intent: "news", news: "yes please" }, cookie);
    expect(answer.status).toBe(400);
    expect(answer.body.errors.news).toBe("Please tick the box, or leave it empty.");
    expect((await everything()).consents).toEqual([]);
    expect(await handle.db.select().from(subscribers).where(eq(subscribers.email, "b@example.test"))).toEqual([]);
  });
});
