import { and, desc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayfastConfig } from "~/config.server";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, emailOutbox, memberSubscriptions, members, orders } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { loadTodoList } from "~/dashboard/todo.server";
import { memberAction } from "~/memberships/account-actions.server";
import { runCardRenewalPass } from "~/memberships/card-renewals.server";
import { cancelMembershipAndCard, howMemberPays } from "~/memberships/card-subscriptions.server";
import { memberLinkSettings } from "~/memberships/member-links.server";
import { runMembershipJob } from "~/memberships/membership-job.server";
import { memberPayments } from "~/memberships/members.server";
import { addDays, addMonths } from "~/memberships/periods";
import { ALREADY_BY_CARD } from "~/orders/payfast-checkout.server";
import { startFakePayfast, type FakePayfast, type SentItn } from "../fakes/payfast-server";
import { checkout } from "../support/checkout";
import { deliverItnsTo, joinByCard, payfastConfigFor } from "../support/payfast";
import { createTestDatabase, testContext } from "../support/test-db";

// Memberships bought as PayFast card subscriptions, against the fake written from payments-payfast.md.
let handle: DatabaseHandle;
let fake: FakePayfast;
let payfast: PayfastConfig;
const clock = fixedClock("2025-03-31T09:00:00+02:00");
/** The address PayFast's notifications come from in these tests (PAYFAST_ITN_SOURCES is 127.0.0.1/32). */
let source = "127.0.0.1";

const context = () =>
  testContext(handle, { config: { payfast, siteUrl: "http://localhost" }, clock, clientIp: source });

beforeAll(async () => {
  handle = await createTestDatabase();
  fake = await startFakePayfast();
  payfast = payfastConfigFor(fake);
  deliverItnsTo(fake, context, (url) => expect(url).toBe("http://localhost/api/payfast/itn"));
});
afterAll(async () => {
  await fake?.close();
  await handle?.close();
});

/** Joins `tier` through /checkout, our PayFast page's form and the fake's Pay, on `day`. */
const join = (day: string, tier = "style-starter") =>
  joinByCard(
    { handle, fake, clock, context },
    { day, tier, label: "card", config: { payfast, siteUrl: "http://localhost" } },
  );

const reload = async (id: number) => (await handle.db.select().from(members).where(eq(members.id, id)))[0]!;
const subscriptionOf = async (orderId: string) =>
  (await handle.db.select().from(memberSubscriptions).where(eq(memberSubscriptions.orderId, orderId)))[0]!;
const alerts = async () =>
  handle.db
    .select({ summary: adminAuditLog.summary })
    .from(adminAuditLog)
    .where(eq(adminAuditLog.action, "payment.card-alert"))
    .orderBy(desc(adminAuditLog.id));

describe("joining by card subscription", () => {
  it("charges the first month at once: the verified first notification makes an active member for one period", async () => {
    const { member, firstItn, orderId, token } = await join("2025-03-10");
    expect(firstItn.answers).toEqual([200]);
    expect(member).toMatchObject({ status: "active", paidUntil: "2025-04-10" });
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ status: "paid", provider: "payfast", memberId: member.id });
    expect(await subscriptionOf(orderId)).toMatchObject({
      status: "active",
      token,
      memberId: member.id,
      amountCents: order!.amountCents,
      nextChargeOn: "2025-04-10",
    });
    expect(fake.subscriptions.get(token)?.runDate).toBe("2025-04-10");
    const mail = await handle.db
      .select({ subject: emailOutbox.subject })
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, member.email));
    expect(mail.length).toBeGreaterThan(0);
  });

  it("extends by exactly one period with each next month's charge, whatever day PayFast runs it", async () => {
    const { member, token } = await join("2025-01-31");
    expect(member.paidUntil).toBe("2025-02-28");
    // PayFast's month-end rule is unconfirmed: the next charge is moved onto paid-until (decision 115).
    expect(fake.subscriptions.get(token)?.runDate).toBe("2025-02-28");
    clock.set("2025-02-28T02:00:00+02:00");
    await fake.renew(token);
    expect((await reload(member.id)).paidUntil).toBe(addMonths("2025-02-28", 1));
    clock.set("2025-03-29T02:00:00+02:00");
    await fake.renew(token);
    const after = await reload(member.id);
    expect(after).toMatchObject({ status: "active", paidUntil: "2025-04-28" });
    const months = await memberPayments(handle.db, member.id);
    expect(months.map((m) => [m.startsOn, m.endsOn])).toEqual([
      ["2025-03-28", "2025-04-28"],
      ["2025-02-28", "2025-03-28"],
      ["2025-01-31", "2025-02-28"],
    ]);
    expect(months.every((m) => m.orderStatus === "paid")).toBe(true);
  });
});

describe("one subscription per member", () => {
  it("does not sell a second card subscription to a member who pays by card", async () => {
    const { email } = await join("2025-05-20");
    const again = await checkout(handle, "membership", "glow-bee-journey", {
      config: { payfast, siteUrl: "http://localhost" },
      clock,
      fields: { firstName: "Nomvula", lastName: "Dlamini", email, phone: "+27 82 555 0199", address: "3 Long Street" },
    });
    expect(again).toMatchObject({ ok: false, toast: { description: ALREADY_BY_CARD } });
  });
});

describe("every notification counts once", () => {
  it("changes nothing for the same notification twice, and extends once per charge in any order", async () => {
    const { member, token, firstItn } = await join("2025-05-05");
    expect(await fake.replay(firstItn)).toBe(200);
    expect((await reload(member.id)).paidUntil).toBe("2025-06-05");
    const june = fake.prepareRenewal(token);
    const july = fake.prepareRenewal(token);
    // Both arrive around paid-until (July's first), so each extends from it: once each, in any order.
    clock.set("2025-06-05T03:00:00+02:00");
    for (const itn of [july, june, july, june]) {
      fake.itns.push(itn);
      expect(await fake.replay(itn)).toBe(200);
    }
    expect((await reload(member.id)).paidUntil).toBe("2025-08-05");
    expect((await memberPayments(handle.db, member.id)).map((m) => m.endsOn)).toEqual([
      "2025-08-05",
      "2025-07-05",
      "2025-06-05",
    ]);
  });
});

describe("a notification that fails a check changes nothing and is logged for the owner", () => {
  async function refused(itn: SentItn, expectedStatus: number, logged: RegExp) {
    const before = await alerts();
    expect(await fake.replay(itn)).toBe(expectedStatus);
    const after = await alerts();
    expect(after.length).toBe(before.length + 1);
    expect(after[0]!.summary).toMatch(logged);
  }

  it("refuses a forged signature", async () => {
    const { member, token } = await join("2025-06-01");
    const itn = fake.prepareRenewal(token);
    const forged = { ...itn, body: itn.body.replace(/signature=[0-9a-f]+/, `signature=${"0".repeat(32)}`) };
    await refused(forged, 400, /signature does not match/);
    expect((await reload(member.id)).paidUntil).toBe("2025-07-01");
  });

  it("refuses a wrong amount", async () => {
    const { member, token } = await join("2025-06-02");
    const itn = await fake.renew(token, { amountGross: "5.00", deliver: false });
    fake.itns.push(itn);
    await refused(itn, 200, /R 5\.00, but the price agreed is/);
    expect((await reload(member.id)).paidUntil).toBe("2025-07-02");
  });

  it("refuses a notification from an address outside PAYFAST_ITN_SOURCES", async () => {
    const { member, token } = await join("2025-06-03");
    const itn = await fake.renew(token, { deliver: false });
    fake.itns.push(itn);
    source = "203.0.113.50";
    try {
      await refused(itn, 403, /203\.0\.113\.50, which is not on PAYFAST_ITN_SOURCES/);
    } finally {
      source = "127.0.0.1";
    }
    expect((await reload(member.id)).paidUntil).toBe("2025-07-03");
  });

  it("refuses one PayFast's validate call answers INVALID for", async () => {
    const { member, token } = await join("2025-06-04");
    fake.validate.invalid = true;
    try {
      const itn = await fake.renew(token, { deliver: false });
      fake.itns.push(itn);
      await refused(itn, 200, /answered INVALID/);
    } finally {
      fake.validate.invalid = false;
    }
    expect((await reload(member.id)).paidUntil).toBe("2025-07-04");
  });

  it("answers 503 while the validate call does not answer, and applies the notification PayFast sends again", async () => {
    const { member, token } = await join("2025-06-05");
    fake.validate.delayMs = 600;
    const itn = fake.prepareRenewal(token);
    fake.itns.push(itn);
    try {
      expect(await fake.replay(itn)).toBe(503);
    } finally {
      fake.validate.delayMs = 0;
    }
    expect((await reload(member.id)).paidUntil).toBe("2025-07-05");
    expect(await fake.replay(itn)).toBe(200);
    expect((await reload(member.id)).paidUntil).toBe("2025-08-05");
  });
});

describe("the tier page and checkout without keys", () => {
  it("still sells a one-month membership through the configured provider", async () => {
    const answer = await checkout(handle, "membership", "style-starter", { clock });
    expect(answer instanceof Response && answer.headers.get("Location")).toMatch(/^\/payments\/simulator\//);
    const subs = await handle.db
      .select()
      .from(memberSubscriptions)
      .where(like(memberSubscriptions.provider, "simulator"));
    expect(subs).toHaveLength(0);
  });
});

describe("living with a card subscription", () => {
  const links = () => memberLinkSettings(context().config);
  /** The membership job and the card pass, morning and evening, on every day from `from` to `to`. */
  async function runDays(from: string, to: string) {
    for (let day = from; day <= to; day = addDays(day, 1)) {
      for (const time of ["07:00", "23:50"]) {
        const at = new Date(`${day}T${time}:00+02:00`);
        clock.set(at);
        await runMembershipJob(handle.db, at, links());
        await runCardRenewalPass(handle.db, at, links(), context().config);
      }
    }
  }
  const mailOf = async (memberId: number) =>
    handle.db
      .select({ subject: emailOutbox.subject, key: emailOutbox.dedupeKey, text: emailOutbox.textBody })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.memberId, memberId), like(emailOutbox.dedupeKey, "member-%")));

  it("tells her of a charge 3 days ahead, not the reminders; a failed charge makes her due, then sends the link once", async () => {
    const { member, token } = await join("2025-08-01");
    expect(await howMemberPays(handle.db, member.id)).toMatchObject({ kind: "card", renewsOn: "2025-09-01" });
    await runDays("2025-08-20", "2025-08-31");
    const before = await mailOf(member.id);
    expect(before.map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Your card will be charged R \d[\d ]*\.00 on 1 September$/),
    ]);
    expect(before[0]!.key).toBe(`member-card-notice:${member.id}:2025-09-01`);

    // The card is declined: PayFast sends nothing and retries for five days.
    fake.renewFail(token);
    await runDays("2025-09-01", "2025-09-01");
    expect((await reload(member.id)).status).toBe("due");
    expect(await howMemberPays(handle.db, member.id)).toMatchObject({ cardFailed: false });
    await runDays("2025-09-02", "2025-09-02");
    expect(await howMemberPays(handle.db, member.id)).toMatchObject({ kind: "card", cardFailed: true });
    const todo = await loadTodoList(handle.db, clock.now());
    expect(todo.members.members.find((m) => m.id === member.id)).toMatchObject({ status: "due", cardFailed: true });
    expect(fake.apiCalls.some((c) => c.token === token && c.action === "fetch" && c.status === 200)).toBe(true);
    await runDays("2025-09-03", "2025-09-07");
    const after = await mailOf(member.id);
    const failed = after.filter((m) => m.key?.startsWith("member-card-failed:"));
    expect(failed).toHaveLength(1);
    expect(failed[0]!.subject).toBe("Your card payment did not go through");
    expect(failed[0]!.text).toContain("/account/renew?token=");
    expect(after.some((m) => /reminder-(7|1)/.test(m.key ?? ""))).toBe(false);
    expect((await reload(member.id)).status).toBe("due");
    // A charge that finally goes through puts her right, and the owner's "card failed" goes.
    clock.set("2025-09-07T09:00:00+02:00");
    await fake.renew(token);
    expect(await reload(member.id)).toMatchObject({ status: "active", paidUntil: "2025-10-01" });
    expect(await howMemberPays(handle.db, member.id)).toMatchObject({ cardFailed: false, renewsOn: "2025-10-01" });
  });

  it("cancels at PayFast through its API when she cancels from /account; a later charge is flagged, never extends", async () => {
    const { member, token } = await join("2025-10-10");
    clock.set("2025-10-20T10:00:00+02:00");
    const answer = await memberAction(
      context(),
      member.id,
      new URLSearchParams({ intent: "cancel" }) as unknown as FormData,
    );
    expect(answer.result).toMatchObject({ ok: true });
    const call = fake.apiCalls.find((c) => c.token === token && c.action === "cancel");
    expect(call).toMatchObject({ method: "PUT", status: 200 });
    expect(fake.subscriptions.get(token)?.statusText).toBe("CANCELLED");
    expect(await reload(member.id)).toMatchObject({ status: "cancelled", paidUntil: "2025-11-10" });
    expect(await howMemberPays(handle.db, member.id)).toEqual({ kind: "email" });

    clock.set("2025-11-10T03:00:00+02:00");
    const late = await fake.renew(token);
    expect(late.answers).toEqual([200]);
    expect(await reload(member.id)).toMatchObject({ status: "cancelled", paidUntil: "2025-11-10" });
    const flagged = await handle.db.select().from(orders).where(eq(orders.memberId, member.id));
    const charge = flagged.find((o) => o.id !== undefined && o.needsAttention);
    expect(charge).toMatchObject({ status: "paid", needsAttention: true });
    expect(charge!.attentionReason).toMatch(/after the subscription was cancelled/);
    expect((await alerts())[0]!.summary).toMatch(/arrived after the subscription was cancelled/);
    expect(await memberPayments(handle.db, member.id)).toHaveLength(1);
  });

  it("changes the card's amount at PayFast with a change of plan; the next charge is the new plan's", async () => {
    const { member, token } = await join("2025-10-13");
    clock.set("2025-10-20T10:00:00+02:00");
    const form = new URLSearchParams({ intent: "change-plan", tier: "glow-bee-journey" }) as unknown as FormData;
    const answer = await memberAction(context(), member.id, form);
    expect(answer.result).toMatchObject({ ok: true, message: expect.stringMatching(/charged R 450\.00 then\.$/) });
    expect(fake.apiCalls.find((c) => c.token === token && c.action === "update")).toMatchObject({
      method: "PATCH",
      body: { amount: 45000 },
      status: 200,
    });
    // A charge at the old price is no longer the agreed amount.
    const old = await fake.renew(token, { amountGross: "150.00", deliver: false });
    fake.itns.push(old);
    expect(await fake.replay(old)).toBe(200);
    expect((await reload(member.id)).paidUntil).toBe("2025-11-13");
    clock.set("2025-11-13T03:00:00+02:00");
    await fake.renew(token);
    expect(await reload(member.id)).toMatchObject({
      tierSlug: "glow-bee-journey",
      nextTierSlug: null,
      paidUntil: "2025-12-13",
    });
  });

  it("lets the owner cancel: PayFast's API is called and her activity log says so", async () => {
    const { member, token } = await join("2025-10-14");
    const cancelled = await cancelMembershipAndCard(context(), member.id, "owner");
    expect(cancelled).toMatchObject({ ok: true, member: { status: "cancelled", paidUntil: "2025-11-14" } });
    expect(fake.apiCalls.find((c) => c.token === token && c.action === "cancel")?.status).toBe(200);
    const log = await handle.db
      .select({ summary: adminAuditLog.summary })
      .from(adminAuditLog)
      .where(eq(adminAuditLog.action, "member.card-cancel"));
    expect(log.map((l) => l.summary)).toContain(
      `Cancelled the card subscription of ${member.name} (${member.email}) at PayFast`,
    );
  });

  it("changes nothing when the provider cannot be reached to cancel", async () => {
    const { member, token } = await join("2025-10-11");
    const api = payfast.apiUrl;
    payfast.apiUrl = "http://127.0.0.1:1";
    try {
      const answer = await memberAction(
        context(),
        member.id,
        new URLSearchParams({ intent: "cancel" }) as unknown as FormData,
      );
      expect(answer).toMatchObject({
        status: 409,
        result: { ok: false, message: expect.stringMatching(/could not reach/) },
      });
    } finally {
      payfast.apiUrl = api;
    }
    expect((await reload(member.id)).status).toBe("active");
    expect(fake.subscriptions.get(token)?.statusText).toBe("ACTIVE");
  });

  it("leaves a member who cancelled, then chose to stay, alone when PayFast's CANCELLED for that cancel arrives", async () => {
    const { member, token } = await join("2025-10-15");
    fake.cancelSendsItn = true;
    try {
      const cancel = await memberAction(
        context(),
        member.id,
        new URLSearchParams({ intent: "cancel" }) as unknown as FormData,
      );
      expect(cancel.result.ok).toBe(true);
    } finally {
      fake.cancelSendsItn = false;
    }
    const itn = fake.itns.at(-1)!;
    expect(itn.body).toContain("payment_status=CANCELLED");
    const resume = await memberAction(
      context(),
      member.id,
      new URLSearchParams({ intent: "resume" }) as unknown as FormData,
    );
    expect(resume.result.ok).toBe(true);
    expect(await fake.replay(itn)).toBe(200);
    expect(await reload(member.id)).toMatchObject({ status: "active", paidUntil: "2025-11-15" });
    expect(fake.subscriptions.get(token)?.statusText).toBe("CANCELLED");
  });

  it("ends the subscription when the buyer cancels at PayFast: she keeps her paid days", async () => {
    const { member, token } = await join("2025-10-12");
    await fake.buyerCancel(token);
    expect(await reload(member.id)).toMatchObject({ status: "cancelled", paidUntil: "2025-11-12" });
    expect(await howMemberPays(handle.db, member.id)).toEqual({ kind: "email" });
  });
});
