import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { members, orders } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { memberLink, memberLinkSettings } from "~/memberships/member-links.server";
import { createMemberSession } from "~/memberships/member-session.server";
import * as account from "~/routes/account";
import * as link from "~/routes/account-link";
import * as receipt from "~/routes/account-receipt";
import { createTestDatabase, testContext } from "../support/test-db";
import { cookiePair, get, memberWithPayment, post } from "../support/account";

// Issue 21: what a signed-in member sees and does on /account, and that it is only ever their own.

const NOW = "2025-09-20T10:00:00+02:00";
let handle: DatabaseHandle;
const clock = fixedClock(NOW);
let a: Awaited<ReturnType<typeof memberWithPayment>>;
let b: Awaited<ReturnType<typeof memberWithPayment>>;
let cookieA: string;
let cookieB: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  a = await memberWithPayment(handle, { email: "amahle@example.test", name: "Amahle Dube", reference: "HB-AMAHLE1" });
  b = await memberWithPayment(handle, {
    email: "bongi@example.test",
    name: "Bongi Nkosi",
    reference: "HB-BONGI01",
    paidUntil: "2025-10-05",
  });
  cookieA = cookiePair(await createMemberSession(handle.db, context(), a.member.id));
  cookieB = cookiePair(await createMemberSession(handle.db, context(), b.member.id));
});
afterAll(() => handle?.close());

function context() {
  return testContext(handle, { clock });
}
const memberRow = async (id: number) => (await handle.db.select().from(members).where(eq(members.id, id)))[0]!;

describe("a member sees only their own data", () => {
  it("shows tier, status in words, paid until, next renewal and past payments with a receipt link", async () => {
    const page = await get(account.loader, context(), "/account", cookieA);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    expect(page.body).toMatchObject({
      signedIn: true,
      account: {
        name: "Amahle Dube",
        email: "amahle@example.test",
        tierName: "The Style Starter",
        status: "active",
        words: { label: "Active", sentence: "Paid until 10 October 2025." },
        paidUntil: "10 October 2025",
        renewal: { tierName: "The Style Starter", price: "R 150.00 / month" },
        payments: [{ reference: "HB-AMAHLE1", amount: "R 150.00", startsOn: "2025-09-10", endsOn: "2025-10-10" }],
      },
    });
    const text = JSON.stringify(page.body);
    expect(text).not.toContain("HB-BONGI01");
    expect(text).not.toContain("bongi@example.test");
  });

  it("opens the member's own receipt, and answers 404 for another member's reference or an unknown one", async () => {
    const own = await get(receipt.loader, context(), "/account/receipts/HB-AMAHLE1", cookieA, {
      reference: "HB-AMAHLE1",
    });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      reference: "HB-AMAHLE1",
      item: "The Style Starter",
      amount: "R 150.00",
      statusWords: "Paid",
      customer: "Amahle Dube",
      date: "10 September 2025",
    });
    for (const reference of ["HB-BONGI01", "hb-bongi01", "HB-NOPE", "../HB-BONGI01", "HB-BONGI01' or '1'='1"]) {
      const other = await get(
        receipt.loader,
        context(),
        `/account/receipts/${encodeURIComponent(reference)}`,
        cookieA,
        { reference },
      );
      expect(other.status, reference).toBe(404);
      expect(JSON.stringify(other.body)).not.toContain("Bongi");
    }
    // The same reference is B's receipt for B.
    expect(
      (await get(receipt.loader, context(), "/account/receipts/HB-BONGI01", cookieB, { reference: "HB-BONGI01" }))
        .status,
    ).toBe(200);
  });

  it("sends a visitor without a session from a receipt to the sign-in form, showing nothing", async () => {
    const anonymous = await get(receipt.loader, context(), "/account/receipts/HB-AMAHLE1", undefined, {
      reference: "HB-AMAHLE1",
    });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toBe("/account");
    expect(JSON.stringify(anonymous.body)).not.toContain("Amahle");
    expect(
      (await get(account.loader, context(), "/account", "member_session=forged-forged-forged-forged-forged")).body,
    ).toEqual({ signedIn: false });
  });

  it("changes only the signed-in member's own row, whatever ids the form carries", async () => {
    const before = await memberRow(b.member.id);
    const saved = await post(
      account.action,
      context(),
      "/account",
      {
        intent: "details",
        name: "Amahle D.",
        phone: "071 000 1111",
        memberId: String(b.member.id),
        id: String(b.member.id),
      },
      cookieA,
    );
    expect(saved.body).toMatchObject({ ok: true, message: "Your details are saved." });
    expect(await memberRow(a.member.id)).toMatchObject({ name: "Amahle D.", phone: "071 000 1111" });
    expect(await memberRow(b.member.id)).toEqual(before);
  });
});

describe("the member's forms", () => {
  it("refuses bad details with a message under each field and changes nothing", async () => {
    const before = await memberRow(a.member.id);
    const bad = await post(
      account.action,
      context(),
      "/account",
      { intent: "details", name: "  ", phone: "call me" },
      cookieA,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ name: "Please enter your name.", phone: "Please enter a valid phone number." });
    expect(bad.body.values).toEqual({ name: "  ", phone: "call me" });
    const long = await post(
      account.action,
      context(),
      "/account",
      { intent: "details", name: "x".repeat(101), phone: "0710001111\u0000" },
      cookieA,
    );
    expect(long.status).toBe(400);
    expect(Object.keys(long.body.errors)).toEqual(["name", "phone"]);
    expect(await memberRow(a.member.id)).toEqual(before);
  });

  it("changes the plan from the next renewal, and refuses a hidden or unpriced tier", async () => {
    const changed = await post(
      account.action,
      context(),
      "/account",
      { intent: "change-plan", tier: "glow-bee-journey" },
      cookieA,
    );
    expect(changed.body).toMatchObject({
      ok: true,
      message: "Your plan changes at your next renewal, on 10 October 2025. Until then nothing changes.",
    });
    expect(await memberRow(a.member.id)).toMatchObject({ tierSlug: "style-starter", nextTierSlug: "glow-bee-journey" });
    const page = await get(account.loader, context(), "/account", cookieA);
    expect(page.body.account).toMatchObject({
      tierName: "The Style Starter",
      renewalTierSlug: "glow-bee-journey",
      planChanged: true,
    });
    const refused = await post(
      account.action,
      context(),
      "/account",
      { intent: "change-plan", tier: "no-such-tier" },
      cookieA,
    );
    expect(refused.status).toBe(400);
    expect(await memberRow(a.member.id)).toMatchObject({ nextTierSlug: "glow-bee-journey" });
    await post(account.action, context(), "/account", { intent: "change-plan", tier: "style-starter" }, cookieA);
    expect(await memberRow(a.member.id)).toMatchObject({ nextTierSlug: null });
  });

  it("lists the plan's perks in words, and none once the membership has lapsed", async () => {
    expect((await get(account.loader, context(), "/account", cookieA)).body.perks).toBe("None with this plan.");
    await handle.db.update(members).set({ tierSlug: "glow-bee" }).where(eq(members.id, b.member.id));
    const words = "1 free ticket a month for Sip & Style at Nanas";
    expect((await get(account.loader, context(), "/account", cookieB)).body.perks).toBe(`${words}.`);
    await handle.db.update(members).set({ paidUntil: "2025-08-01" }).where(eq(members.id, b.member.id));
    expect((await get(account.loader, context(), "/account", cookieB)).body.perks).toBe(
      `None while your membership is lapsed: renew to get ${words}.`,
    );
    await handle.db
      .update(members)
      .set({ tierSlug: "style-starter", paidUntil: "2025-10-05" })
      .where(eq(members.id, b.member.id));
  });

  it("cancels at the end of the paid month, then keeps the membership on request", async () => {
    const cancelled = await post(account.action, context(), "/account", { intent: "cancel" }, cookieA);
    expect(cancelled.body).toMatchObject({
      ok: true,
      message: "Your membership is cancelled. It ends on 10 October 2025, and we will not ask you to renew.",
    });
    const page = await get(account.loader, context(), "/account", cookieA);
    expect(page.body.account.words).toEqual({
      label: "Cancelled",
      sentence: "Cancelled: ends on 10 October 2025. You keep your membership until then.",
    });
    const kept = await post(account.action, context(), "/account", { intent: "resume" }, cookieA);
    expect(kept.body.ok).toBe(true);
    expect(await memberRow(a.member.id)).toMatchObject({ status: "active", cancelledAt: null });
  });

  it("renews: a pending order for this member at the tier's price, and the payment page", async () => {
    const renewed = await post(account.action, context(), "/account", { intent: "renew" }, cookieA);
    expect(renewed.status).toBe(302);
    expect(renewed.headers.get("location")).toMatch(/\/payments\/simulator\/[0-9a-f-]{36}$/);
    const orderId = renewed.headers.get("location")!.split("/").at(-1)!;
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({
      status: "pending",
      memberId: a.member.id,
      amountCents: 15000,
      customerEmail: "amahle@example.test",
      orderType: "membership",
    });
  });

  it("sends a signed-out form back to the sign-in page, changing nothing", async () => {
    const before = await memberRow(a.member.id);
    for (const intent of ["cancel", "details", "renew", "change-plan", "resume"]) {
      const answer = await post(account.action, context(), "/account", {
        intent,
        name: "X",
        phone: "0710000000",
        tier: "vip-sustainable-human",
      });
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toBe("/account");
    }
    expect(await memberRow(a.member.id)).toEqual(before);
  });
});

describe("the Renew and Cancel links from reminder emails", () => {
  const settings = () => memberLinkSettings(context().config);
  const path = (url: string) => url.replace("http://localhost:3000", "");

  it("shows what will happen on GET and does it on POST", async () => {
    const member = await memberRow(b.member.id);
    const cancelUrl = path(memberLink(settings(), member, "cancel"));
    const token = new URL(cancelUrl, "http://x").searchParams.get("token")!;
    const shown = await get(link.loader, context(), cancelUrl);
    expect(shown.body).toMatchObject({
      purpose: "cancel",
      token,
      details: { name: "Bongi Nkosi", paidUntil: "5 October 2025", alreadyCancelled: false },
    });
    expect((await memberRow(b.member.id)).status).toBe("active");
    const done = await post(link.action, context(), "/account/cancel", { token });
    expect(done.body.done).toBe(
      "Your membership is cancelled. You keep it until 5 October 2025, and we will not ask you to renew.",
    );
    expect((await memberRow(b.member.id)).status).toBe("cancelled");

    const renewUrl = path(memberLink(settings(), member, "renew"));
    const renewToken = new URL(renewUrl, "http://x").searchParams.get("token")!;
    expect((await get(link.loader, context(), renewUrl)).body.details).toMatchObject({
      tierName: "The Style Starter",
      price: "R 150.00 / month",
    });
    const paying = await post(link.action, context(), "/account/renew", { token: renewToken });
    expect(paying.status).toBe(302);
    expect(paying.headers.get("location")).toMatch(/\/payments\/simulator\//);
  });

  it("refuses a bad, outdated or other-purpose token with a message and a way to /account", async () => {
    const member = await memberRow(b.member.id);
    const cancelToken = new URL(memberLink(settings(), member, "cancel")).searchParams.get("token")!;
    const outdated = new URL(memberLink(settings(), { ...member, paidUntil: "2025-09-05" }, "renew")).searchParams.get(
      "token",
    )!;
    for (const [url, token] of [
      ["/account/renew", cancelToken],
      ["/account/renew", outdated],
      ["/account/cancel", "1.forged"],
      ["/account/cancel", ""],
    ] as const) {
      const page = await get(link.loader, context(), `${url}?token=${encodeURIComponent(token)}`);
      expect(page.status).toBe(410);
      expect(page.body).toMatchObject({
        token: null,
        details: null,
        problem: expect.stringMatching(/expired or is not valid/),
      });
      const posted = await post(link.action, context(), url, { token });
      expect(posted.status).toBe(410);
    }
  });
});
