import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayfastConfig } from "~/config.server";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, memberPeriods, memberSubscriptions, members, payfastHeldNotifications } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { reconcileHeldNotifications } from "~/orders/payfast-held.server";
import { startFakePayfast, type FakePayfast } from "../fakes/payfast-server";
import { deliverItnsTo, joinByCard, payfastConfigFor } from "../support/payfast";
import { createTestDatabase, testContext } from "../support/test-db";

// A notification whose validate call times out or cannot connect is held, not applied and not lost; the
// sweeper's pass asks PayFast again (validate, then the subscriptions API) and applies it once (decision 131).
let handle: DatabaseHandle;
let fake: FakePayfast;
let payfast: PayfastConfig;
const clock = fixedClock("2025-03-10T09:00:00+02:00");
const context = () =>
  testContext(handle, { config: { payfast, siteUrl: "http://localhost" }, clock, clientIp: "127.0.0.1" });

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
    { day, label: "held", config: { payfast, siteUrl: "http://localhost" } },
  );

const reload = async (id: number) => (await handle.db.select().from(members).where(eq(members.id, id)))[0]!;
const subscriptionOf = async (orderId: string) =>
  (await handle.db.select().from(memberSubscriptions).where(eq(memberSubscriptions.orderId, orderId)))[0]!;
const heldRow = async (paymentId: string) =>
  (await handle.db.select().from(payfastHeldNotifications).where(eq(payfastHeldNotifications.paymentId, paymentId)))[0];
const periodsOf = async (memberId: number) =>
  handle.db.select().from(memberPeriods).where(eq(memberPeriods.memberId, memberId));
const paymentIdOf = (pairs: [string, string][]) => pairs.find(([k]) => k === "pf_payment_id")![1];

describe("a validate call that times out or cannot connect", () => {
  it("holds a renewal; the sweeper learns from the subscriptions API that it was charged and extends once", async () => {
    const { member, token } = await join("2025-03-10");
    clock.set("2025-04-10T06:00:00+02:00");
    fake.validate.delayMs = 600;
    try {
      const itn = await fake.renew(token);
      expect(itn.answers).toEqual([503, 503, 503]);
      const id = paymentIdOf(itn.pairs);
      expect(await heldRow(id)).toMatchObject({ status: "held" });
      expect((await reload(member.id)).paidUntil).toBe("2025-04-10");

      clock.set("2025-04-10T06:05:00+02:00");
      expect(await reconcileHeldNotifications(context())).toEqual({ applied: 1, refused: 0, waiting: 0 });
      expect(fake.apiCalls.at(-3)).toMatchObject({ token, action: "fetch", status: 200 });
      expect((await reload(member.id)).paidUntil).toBe("2025-05-10");
      expect(await heldRow(id)).toMatchObject({ status: "applied", attempts: 1 });

      // PayFast's later resend, validated this time, and the next pass change nothing more.
      fake.validate.delayMs = 0;
      expect(await fake.replay(itn)).toBe(200);
      expect(await reconcileHeldNotifications(context())).toEqual({ applied: 0, refused: 0, waiting: 0 });
      expect((await reload(member.id)).paidUntil).toBe("2025-05-10");
      expect(await periodsOf(member.id)).toHaveLength(2);
    } finally {
      fake.validate.delayMs = 0;
    }
  });

  it("holds a first charge when the validate URL cannot be reached; the sweeper makes the member once", async () => {
    const real = payfast;
    payfast = { ...real, validateUrl: "http://127.0.0.1:9/eng/query/validate" };
    let joined: Awaited<ReturnType<typeof join>> | undefined;
    try {
      joined = await join("2025-06-02");
      expect(joined.member).toBeUndefined();
      expect(await subscriptionOf(joined.orderId)).toMatchObject({ status: "pending", memberId: null });
      expect(await reconcileHeldNotifications(context())).toEqual({ applied: 1, refused: 0, waiting: 0 });
    } finally {
      payfast = real;
    }
    const sub = await subscriptionOf(joined!.orderId);
    expect(sub).toMatchObject({ status: "active", token: joined!.token });
    expect(await reload(sub.memberId!)).toMatchObject({ status: "active", paidUntil: "2025-07-02" });
    expect(await periodsOf(sub.memberId!)).toHaveLength(1);
  });

  it("applies a held one the validate call confirms later, and refuses one it answers INVALID", async () => {
    const { member, token } = await join("2025-08-04");
    clock.set("2025-09-04T06:00:00+02:00");
    fake.validate.status500 = true;
    const first = await fake.renew(token);
    fake.validate.status500 = false;
    expect(await reconcileHeldNotifications(context())).toEqual({ applied: 1, refused: 0, waiting: 0 });
    expect((await reload(member.id)).paidUntil).toBe("2025-10-04");
    expect(await heldRow(paymentIdOf(first.pairs))).toMatchObject({ status: "applied" });

    clock.set("2025-10-04T06:00:00+02:00");
    fake.validate.status500 = true;
    const second = await fake.renew(token);
    fake.validate.status500 = false;
    fake.validate.invalid = true;
    try {
      expect(await reconcileHeldNotifications(context())).toEqual({ applied: 0, refused: 1, waiting: 0 });
    } finally {
      fake.validate.invalid = false;
    }
    expect((await reload(member.id)).paidUntil).toBe("2025-10-04");
    expect(await heldRow(paymentIdOf(second.pairs))).toMatchObject({ status: "refused" });
    const [alert] = await handle.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.action, "payment.card-alert"))
      .orderBy(desc(adminAuditLog.id));
    expect(alert!.summary).toContain(`held PayFast notification (payment ${paymentIdOf(second.pairs)})`);
  });

  it("keeps waiting, changing nothing, while neither the validate call nor the API answers", async () => {
    const { member, token } = await join("2025-11-05");
    clock.set("2025-12-05T06:00:00+02:00");
    fake.validate.status500 = true;
    const itn = await fake.renew(token);
    const real = payfast;
    payfast = { ...real, apiUrl: "http://127.0.0.1:9" };
    try {
      expect(await reconcileHeldNotifications(context())).toEqual({ applied: 0, refused: 0, waiting: 1 });
      expect(await reconcileHeldNotifications(context())).toEqual({ applied: 0, refused: 0, waiting: 1 });
    } finally {
      payfast = real;
      fake.validate.status500 = false;
    }
    expect((await reload(member.id)).paidUntil).toBe("2025-12-05");
    expect(await heldRow(paymentIdOf(itn.pairs))).toMatchObject({ status: "held", attempts: 2 });
    // PayFast's resend, validated, applies it; the next pass finds nothing held.
    expect(await fake.replay(itn)).toBe(200);
    expect(await heldRow(paymentIdOf(itn.pairs))).toMatchObject({ status: "applied" });
    expect(await reconcileHeldNotifications(context())).toEqual({ applied: 0, refused: 0, waiting: 0 });
    expect((await reload(member.id)).paidUntil).toBe("2026-01-05");
  });
});
