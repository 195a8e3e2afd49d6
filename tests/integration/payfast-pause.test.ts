import { and, desc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayfastConfig } from "~/config.server";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, emailOutbox, memberSubscriptions, members } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { pauseCardCharges, resumeCardCharges } from "~/memberships/card-pauses.server";
import { runCardRenewalPass } from "~/memberships/card-renewals.server";
import { recurringRevenue } from "~/memberships/member-figures.server";
import { howMemberPays } from "~/memberships/card-subscriptions.server";
import { memberLinkSettings } from "~/memberships/member-links.server";
import { runMembershipJob } from "~/memberships/membership-job.server";
import { addDays } from "~/memberships/periods";
import { startFakePayfast, type FakePayfast } from "../fakes/payfast-server";
import { deliverItnsTo, joinByCard, payfastConfigFor } from "../support/payfast";
import { createTestDatabase, testContext } from "../support/test-db";

// The owner pauses a member's card charges for one to three months and resumes them (decision 130),
// through the subscriptions API of a fake PayFast written from payments-payfast.md.
let handle: DatabaseHandle;
let fake: FakePayfast;
let payfast: PayfastConfig;
const clock = fixedClock("2025-03-10T09:00:00+02:00");
const context = () =>
  testContext(handle, { config: { payfast, siteUrl: "http://localhost" }, clock, clientIp: "127.0.0.1" });
const links = () => memberLinkSettings(context().config);

beforeAll(async () => {
  handle = await createTestDatabase();
  fake = await startFakePayfast();
  payfast = payfastConfigFor(fake);
  deliverItnsTo(fake, context);
});
afterAll(async () => {
  await fake?.close();
  await handle?.close();
});

/** Joins by card through /checkout, our PayFast form and the fake's Pay, on `day`. */
const join = (day: string) =>
  joinByCard(
    { handle, fake, clock, context },
    { day, label: "pause", config: { payfast, siteUrl: "http://localhost" } },
  );

const reload = async (id: number) => (await handle.db.select().from(members).where(eq(members.id, id)))[0]!;
const subscriptionOf = async (orderId: string) =>
  (await handle.db.select().from(memberSubscriptions).where(eq(memberSubscriptions.orderId, orderId)))[0]!;
const mailOf = async (memberId: number) =>
  handle.db
    .select({ subject: emailOutbox.subject, key: emailOutbox.dedupeKey })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.memberId, memberId), like(emailOutbox.dedupeKey, "member-%")));
/** The membership job and the card pass, morning and evening, every day from `from` to `to`. */
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

describe("pausing a member's card charges", () => {
  it("pauses at PayFast for the months chosen: no reminders, notice, due or lapse; the charge after it starts her month", async () => {
    const { member, token, orderId } = await join("2025-03-10");
    expect(member.paidUntil).toBe("2025-04-10");

    clock.set("2025-03-20T10:00:00+02:00");
    const revenue = await recurringRevenue(handle.db);
    const paused = await pauseCardCharges(context(), member.id, 2);
    // She pays nothing in the pause, so she is out of the monthly recurring revenue (decision 130).
    expect((await recurringRevenue(handle.db)).mrrCents).toBe(revenue.mrrCents - 15_000);
    expect(paused).toEqual({ ok: true, pausedUntil: "2025-06-10", name: member.name });
    expect(fake.apiCalls.at(-1)).toMatchObject({ method: "PUT", token, action: "pause", status: 200 });
    expect(fake.apiCalls.at(-1)!.body).toEqual({ cycles: 2 });
    expect(fake.subscriptions.get(token)).toMatchObject({ statusText: "PAUSED", pausedCycles: 2 });
    expect(await subscriptionOf(orderId)).toMatchObject({ pausedUntil: "2025-06-10", nextChargeOn: "2025-06-10" });
    expect(await howMemberPays(handle.db, member.id)).toMatchObject({ kind: "card", pausedUntil: "2025-06-10" });
    const [audit] = await handle.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.action, "member.card-pause"))
      .orderBy(desc(adminAuditLog.id));
    expect(audit!.summary).toBe(
      `Paused the card charges of ${member.name} (${member.email}) for 2 months, until 10 June 2025`,
    );
    expect(await pauseCardCharges(context(), member.id, 1)).toEqual({
      ok: false,
      reason: "Her card charges are already paused until 10 June 2025.",
    });

    // PayFast's run dates in the pause pass without a charge.
    await runDays("2025-03-21", "2025-04-10");
    fake.skipPausedCycle(token);
    await runDays("2025-04-11", "2025-05-10");
    fake.skipPausedCycle(token);
    await runDays("2025-05-11", "2025-06-09");
    const inPause = await reload(member.id);
    expect(inPause).toMatchObject({ status: "active", paidUntil: "2025-04-10" });
    expect(fake.subscriptions.get(token)).toMatchObject({ statusText: "ACTIVE", runDate: "2025-06-10" });
    expect(await mailOf(member.id)).toEqual([
      { subject: expect.stringMatching(/ on 10 June$/), key: `member-card-notice:${member.id}:2025-06-10` },
    ]);

    // The pause ends on its day: her calendar starts again then, and until PayFast's charge arrives she is
    // due, as any card member is on her charge day; the charge gives one more period from that day.
    await runDays("2025-06-10", "2025-06-10");
    expect(await reload(member.id)).toMatchObject({ status: "due", paidUntil: "2025-06-10" });
    expect((await subscriptionOf(orderId)).pausedUntil).toBeNull();
    await fake.renew(token);
    expect(await reload(member.id)).toMatchObject({ status: "active", paidUntil: "2025-07-10" });
    await runDays("2025-06-11", "2025-06-12");
    const mail = await mailOf(member.id);
    expect(mail.filter((m) => m.key?.startsWith("member-card-notice:"))).toHaveLength(1);
    expect(mail.some((m) => /member-(week|day|lapsed|card-failed)/.test(m.key ?? ""))).toBe(false);
  });

  it("resumes in the pause: PayFast charges today and her month starts from the charge", async () => {
    const { member, token, orderId } = await join("2025-08-05");
    clock.set("2025-08-06T10:00:00+02:00");
    expect((await pauseCardCharges(context(), member.id, 3)).ok).toBe(true);
    await runDays("2025-08-07", "2025-09-20");
    expect(await reload(member.id)).toMatchObject({ status: "active", paidUntil: "2025-09-05" });

    clock.set("2025-09-20T10:00:00+02:00");
    expect(await resumeCardCharges(context(), member.id)).toEqual({ ok: true, pausedUntil: null, name: member.name });
    const calls = fake.apiCalls.filter((c) => c.token === token).slice(-2);
    expect(calls.map((c) => [c.action, c.status])).toEqual([
      ["unpause", 200],
      ["update", 200],
    ]);
    expect(calls[1]!.body).toEqual({ run_date: "2025-09-20" });
    expect(fake.subscriptions.get(token)).toMatchObject({ statusText: "ACTIVE", runDate: "2025-09-20" });
    expect(await subscriptionOf(orderId)).toMatchObject({ pausedUntil: null, nextChargeOn: "2025-09-20" });
    expect((await reload(member.id)).paidUntil).toBe("2025-09-20");
    await fake.renew(token);
    expect(await reload(member.id)).toMatchObject({ status: "active", paidUntil: "2025-10-20" });
    const [audit] = await handle.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.action, "member.card-resume"))
      .orderBy(desc(adminAuditLog.id));
    expect(audit!.summary).toContain(`Resumed the card charges of ${member.name}`);
  });

  it("resumes before paid-until: nothing moves but the charge on paid-until", async () => {
    const { member, token } = await join("2025-11-03");
    clock.set("2025-11-10T10:00:00+02:00");
    await pauseCardCharges(context(), member.id, 1);
    expect(await resumeCardCharges(context(), member.id)).toMatchObject({ ok: true });
    expect(fake.subscriptions.get(token)).toMatchObject({ statusText: "ACTIVE", runDate: "2025-12-03" });
    expect((await reload(member.id)).paidUntil).toBe("2025-12-03");
    expect(await howMemberPays(handle.db, member.id)).toMatchObject({ pausedUntil: null, renewsOn: "2025-12-03" });
    expect(await resumeCardCharges(context(), member.id)).toEqual({
      ok: false,
      reason: "Her card charges are not paused.",
    });
  });

  it("changes nothing when PayFast cannot be reached or refuses", async () => {
    const { member, token, orderId } = await join("2026-01-15");
    const real = payfast;
    payfast = { ...real, apiUrl: "http://127.0.0.1:9" };
    try {
      const answer = await pauseCardCharges(context(), member.id, 1);
      expect(answer).toEqual({
        ok: false,
        reason:
          "We could not reach the card provider to pause the monthly charge, so nothing was changed. Please try again.",
      });
    } finally {
      payfast = real;
    }
    expect((await subscriptionOf(orderId)).pausedUntil).toBeNull();
    expect(fake.subscriptions.get(token)?.statusText).toBe("ACTIVE");
    // PayFast refuses to pause a subscription that is not active (the fake answers 400, per §5).
    fake.subscriptions.get(token)!.statusText = "LOCKED";
    expect((await pauseCardCharges(context(), member.id, 1)).ok).toBe(false);
    expect((await subscriptionOf(orderId)).pausedUntil).toBeNull();
    fake.subscriptions.get(token)!.statusText = "ACTIVE";
  });

  it("refuses a member who renews by email", async () => {
    const [member] = await handle.db
      .insert(members)
      .values({
        name: "Email Renewer",
        phone: "+27 82 555 0100",
        email: `email-${Date.now()}@example.com`,
        tierSlug: "style-starter",
        status: "active",
        paidUntil: "2026-03-01",
        joinedAt: new Date(),
      })
      .returning();
    expect(await pauseCardCharges(context(), member!.id, 1)).toEqual({
      ok: false,
      reason: "This member pays by email reminder: no card charge to pause.",
    });
  });
});
