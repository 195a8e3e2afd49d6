import { and, eq } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { catalogItems, emailOutbox, members, ticketOptions } from "~/db/schema";
import { deliverPendingEmails } from "~/email/outbox.server";
import { fixedClock } from "~/lib/clock";
import { signInSentMessage, SIGN_IN_LIMITED } from "~/memberships/account-actions.server";
import { NO_CHECKOUT_TO_RETURN_TO } from "~/memberships/checkout-sign-in";
import * as account from "~/routes/account";
import * as signIn from "~/routes/account-sign-in";
import * as checkout from "~/routes/checkout";
import * as checkoutSignIn from "~/routes/checkout-sign-in";
import { startSmtpSink } from "../fakes/smtp-sink";
import { get, post } from "../support/account";
import { bagBrowser } from "../support/bag";
import { createTestDatabase, testContext } from "../support/test-db";

/*
 * Issue 40: "Member? Sign in for your price". A checkout links to a page that emails the member's sign-in
 * link (the same limits and one answer as /account's); the link signs her in and returns her to the same
 * checkout, whose bag is untouched, now priced for her plan.
 */
const NOW = "2025-09-10T10:00:00+02:00";
const GLOW = "nokuthula.glow@example.test";
const clock = fixedClock(NOW);
let handle: DatabaseHandle;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let ip = 0;
const context = () => testContext(handle, { clock, clientIp: `198.51.100.${++ip}` });

beforeAll(async () => {
  handle = await createTestDatabase();
  sink = await startSmtpSink();
  await handle.db.insert(members).values({
    email: GLOW,
    name: "Nokuthula Dlamini-Hendricks",
    phone: "082 555 0123",
    tierSlug: "glow-bee",
    paidUntil: "2025-10-10",
    joinedAt: new Date("2025-09-01T08:00:00Z"),
  });
});
afterAll(async () => {
  await sink?.close();
  await handle?.close();
});

const ask = (fields: Record<string, string>, cookie?: string) =>
  post(checkoutSignIn.action, context(), "/checkout/sign-in", { intent: "request-link", ...fields }, cookie);

/** Sends the outbox to the SMTP sink and answers the sign-in link in the newest email to `to`. */
async function emailedLink(to: string): Promise<URL> {
  await deliverPendingEmails(handle.db, { smtpUrl: sink.url, from: "Shop <shop@example.test>" }, undefined, () => {});
  const message = sink.messages.filter((m) => m.to[0] === to).at(-1);
  expect(message).toBeDefined();
  const mail = await simpleParser(message!.raw);
  const link = /http:\/\/localhost:3000\/account\/sign-in\?\S+/.exec(mail.text ?? "");
  expect(link).not.toBeNull();
  return new URL(link![0]);
}

async function signInFrom(link: URL): Promise<{ location: string | null; cookie: string }> {
  const page = await get(signIn.loader, context(), `${link.pathname}${link.search}`);
  expect(page.body.problem).toBeNull();
  const form: Record<string, string> = { token: page.body.token };
  if (page.body.next) form.next = page.body.next;
  const answer = await post(signIn.action, context(), "/account/sign-in", form);
  return { location: answer.location, cookie: answer.headers.get("Set-Cookie")!.split(";", 1)[0]! };
}

describe("a Glow Bee member's bag checkout, before and after signing in from it", () => {
  it("emails a link that returns to /checkout?bag=1 signed in, the bag intact and its free ticket priced in", async () => {
    const [earlyBird] = await handle.db
      .select()
      .from(ticketOptions)
      .where(and(eq(ticketOptions.eventId, "sip-style"), eq(ticketOptions.type, "Early Bird")));
    const [earrings] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "candy-earrings"));
    const browser = bagBrowser(handle, { clock, clientIp: "198.51.100.200" });
    await browser.post({ intent: "add", kind: "ticket", id: String(earlyBird!.id), quantity: "1" });
    await browser.post({ intent: "add", kind: "catalog", id: String(earrings!.id), quantity: "1" });

    const before = await get(checkout.loader, context(), "/checkout?bag=1", browser.cookieHeader());
    expect(before.body.offer).toMatchObject({ kind: "bag", ready: true, totalCents: 70000, perks: {} });
    const href: string = before.body.memberSignIn;
    expect(href).toBe(`/checkout/sign-in?${new URLSearchParams({ return: "/checkout?bag=1" })}`);

    const page = await get(checkoutSignIn.loader, context(), href);
    expect(page).toMatchObject({ status: 200, body: { returnTo: "/checkout?bag=1" } });
    const asked = await ask({ email: GLOW, returnTo: page.body.returnTo }, browser.cookieHeader());
    expect(asked.status).toBe(200);
    expect(asked.body.result).toMatchObject({ ok: true, message: signInSentMessage(GLOW) });

    const link = await emailedLink(GLOW);
    expect(link.searchParams.get("next")).toBe("/checkout?bag=1");
    const { location, cookie } = await signInFrom(link);
    expect(location).toBe("/checkout?bag=1");
    const [name, value] = cookie.split("=");
    browser.jar.set(name!, value!);

    const after = await get(checkout.loader, context(), location!, browser.cookieHeader());
    expect(after.body.memberSignIn).toBeNull();
    expect(after.body.offer).toMatchObject({ kind: "bag", ready: true, totalCents: 35000 });
    expect(after.body.offer.lines.map((l: { name: string; quantity: number }) => [l.name, l.quantity])).toEqual([
      ["Sip & Style at Nanas", 1],
      [earrings!.name, 1],
    ]);
    expect(Object.values(after.body.offer.perks)).toEqual([
      { reason: "Glow Bee: free ticket, 1 of 1 this month", chargedCents: 0 },
    ]);
  });
});

describe("the one-item checkout's offer", () => {
  const EARLY_BIRD = `/checkout?${new URLSearchParams({ type: "ticket", item: "Sip & Style at Nanas - Early Bird" })}`;

  it("shows where a perk could lower the price, and returns to the same query string after signing in", async () => {
    const ticket = await get(checkout.loader, context(), EARLY_BIRD);
    expect(ticket.body.memberSignIn).toBe(`/checkout/sign-in?${new URLSearchParams({ return: EARLY_BIRD })}`);
    const product = await get(checkout.loader, context(), "/checkout?type=product&item=Candy%20Earrings");
    expect(product.body.memberSignIn).toContain("/checkout/sign-in?return=");
    // No perk lowers a service or a plan: no offer to sign in for a price that would not change.
    const service = await get(checkout.loader, context(), "/checkout?type=service&item=Fashion%20Consultation");
    expect(service.body.offer.kind).toBe("sellable");
    expect(service.body.memberSignIn).toBeNull();
    const plan = await get(checkout.loader, context(), "/checkout?type=membership&item=glow-bee");
    expect(plan.body.memberSignIn).toBeNull();

    await ask({ email: GLOW, returnTo: EARLY_BIRD });
    const { location, cookie } = await signInFrom(await emailedLink(GLOW));
    expect(location).toBe(EARLY_BIRD);
    const signedIn = await get(checkout.loader, context(), EARLY_BIRD, cookie);
    expect(signedIn.body.memberSignIn).toBeNull();
    expect(signedIn.body.offer.price).toMatchObject({
      totalCents: 0,
      reason: "Glow Bee: free ticket, 1 of 1 this month",
    });
  });

  it("gives an unknown address the same answer and sends nothing", async () => {
    const mails = (await handle.db.select().from(emailOutbox)).length;
    const answer = await ask({ email: "nobody@example.test", returnTo: EARLY_BIRD });
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({ ok: true, message: signInSentMessage("nobody@example.test") });
    expect(await handle.db.select().from(emailOutbox)).toHaveLength(mails);
  });
});

describe("the return path", () => {
  it.each([
    ["another host", "//evil.example/checkout"],
    ["a full address", "https://evil.example/checkout?bag=1"],
    ["a backslash", "/\\evil.example/checkout"],
    ["a page that is not a checkout", "/account/renew"],
    ["nothing", ""],
  ])("refuses %s: a message, and no link is sent", async (_, returnTo) => {
    const page = await get(
      checkoutSignIn.loader,
      context(),
      `/checkout/sign-in?${new URLSearchParams({ return: returnTo })}`,
    );
    expect(page).toMatchObject({ status: 400, body: { returnTo: null } });
    const mails = (await handle.db.select().from(emailOutbox)).length;
    const answer = await ask({ email: GLOW, returnTo });
    expect(answer.status).toBe(400);
    expect(answer.body.result).toMatchObject({ ok: false, message: NO_CHECKOUT_TO_RETURN_TO });
    expect(await handle.db.select().from(emailOutbox)).toHaveLength(mails);
  });

  it("a link whose next was changed to another site still signs in, to /account", async () => {
    await ask({ email: GLOW, returnTo: "/checkout?bag=1" });
    const link = await emailedLink(GLOW);
    link.searchParams.set("next", "//evil.example/");
    const page = await get(signIn.loader, context(), `${link.pathname}${link.search}`);
    expect(page.body.next).toBeUndefined();
    const answer = await post(signIn.action, context(), "/account/sign-in", {
      token: page.body.token,
      next: "https://evil.example/",
    });
    expect(answer.location).toBe("/account");
  });
});

describe("the same limits as /account's form", () => {
  it("counts asks from /account and from a checkout together for one address", async () => {
    const email = "limited.member@example.test";
    for (let i = 0; i < 3; i++)
      expect((await post(account.action, context(), "/account", { intent: "request-link", email })).status).toBe(200);
    const answer = await ask({ email, returnTo: "/checkout?bag=1" });
    expect(answer.status).toBe(429);
    expect(answer.body.result).toMatchObject({ ok: false, message: SIGN_IN_LIMITED });
  });
});
