import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, emailOutbox, memberPeriods, members, orders } from "~/db/schema";
import { memberFigures } from "~/memberships/members-admin.server";
import { recordPayment } from "~/orders/payment-events.server";
import * as memberPage from "~/routes/admin/member";
import { createTestDatabase } from "../support/test-db";
import { call, get, post, toastOf } from "../support/admin-content";
import { buyer, checkout, orderIdFrom } from "../support/checkout";
import { signedInOwner } from "../support/owner";

/**
 * The owner's actions on a member's page (issue 21), through the route's real action: a gift month,
 * cancel, resend the renewal link, and bad input that changes nothing. Members are made the way the
 * shop makes them: a membership order paid through recordPayment.
 */
let handle: DatabaseHandle;
let cookie: string;
let payments = 0;

beforeAll(async () => {
  handle = await createTestDatabase();
  cookie = await signedInOwner(handle);
});
afterAll(() => handle?.close());

/** A visitor buys a membership of `tier` and the payment arrives (the app clock: 10 September 2025). */
async function joinByPayment(email: string, tier = "style-starter") {
  const result = await checkout(handle, "membership", tier, { fields: { ...buyer, email } });
  const orderId = orderIdFrom(result);
  const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
  const paid = await recordPayment(handle.db, {
    event: {
      eventId: `evt-members-admin-${payments++}`,
      provider: "simulator",
      eventType: "payment.succeeded",
      payload: {},
    },
    orderId,
    paymentId: `pay-members-admin-${payments}`,
    amountCents: order!.amountCents,
    now: new Date("2025-09-10T08:00:00Z"),
    mail: {
      siteUrl: "http://localhost:3000",
      ownerEmail: "owner@example.test",
      secret: "test-secret-test-secret-test-secret",
    },
  });
  expect(paid.outcome).toBe("paid");
  const [member] = await handle.db.select().from(members).where(eq(members.email, email));
  expect(member, `a member for ${email}`).toBeDefined();
  return { member: member!, order: order! };
}

const memberRow = async (id: number) => (await handle.db.select().from(members).where(eq(members.id, id)))[0]!;
const act = (id: number, fields: Record<string, string>) =>
  call(handle, memberPage.action, post(`/admin/members/${id}`, fields, cookie), { id: String(id) });
const page = (id: number) => call(handle, memberPage.loader, get(`/admin/members/${id}`, cookie), { id: String(id) });

describe("a paid membership order and the owner's view", () => {
  it("adds the member with their payment linked to the order, and MRR grows by the tier's price", async () => {
    const before = await memberFigures(handle.db);
    const { member, order } = await joinByPayment("naledi@example.test", "glow-bee-journey");
    const after = await memberFigures(handle.db);
    expect(after.mrrCents - before.mrrCents).toBe(45_000);
    expect(after.active - before.active).toBe(1);
    const shown = await page(member.id);
    expect(shown.status).toBe(200);
    expect(shown.body.member).toMatchObject({
      email: "naledi@example.test",
      status: "active",
      paidUntil: "2025-10-10",
    });
    expect(shown.body.payments).toEqual([
      expect.objectContaining({
        kind: "payment",
        orderId: order.id,
        reference: order.reference,
        amountCents: 45_000,
        startsOn: "2025-09-10",
        endsOn: "2025-10-10",
      }),
    ]);
  });
});

describe("Extend by a month", () => {
  it("gives exactly one calendar month, noted in the member's history, with a toast", async () => {
    const { member } = await joinByPayment("gift@example.test");
    expect(member.paidUntil).toBe("2025-10-10");
    const answer = await act(member.id, { intent: "gift", note: "  Thank you for helping at the market  " });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(`/admin/members/${member.id}`);
    expect(toastOf(answer)).toMatchObject({
      title: "Month added",
      description: expect.stringContaining("10 November 2025"),
    });
    expect((await memberRow(member.id)).paidUntil).toBe("2025-11-10");
    const shown = await page(member.id);
    expect(shown.body.payments).toEqual([
      expect.objectContaining({
        kind: "gift",
        note: "Thank you for helping at the market",
        startsOn: "2025-10-10",
        endsOn: "2025-11-10",
        orderId: null,
      }),
      expect.objectContaining({ kind: "payment", startsOn: "2025-09-10", endsOn: "2025-10-10" }),
    ]);
  });

  it("a month after 31 January is the end of February", async () => {
    const [member] = await handle.db
      .insert(members)
      .values({
        name: "Month End",
        email: "month-end@example.test",
        phone: "",
        tierSlug: "style-starter",
        status: "active",
        paidUntil: "2026-01-31",
        joinedAt: new Date("2025-12-31T10:00:00Z"),
      })
      .returning();
    expect((await act(member!.id, { intent: "gift", note: "Month end" })).status).toBe(302);
    expect((await memberRow(member!.id)).paidUntil).toBe("2026-02-28");
  });

  it("refuses an empty, too long or multi-line note with a message, and changes nothing", async () => {
    const { member } = await joinByPayment("bad-note@example.test");
    const periods = async () =>
      (await handle.db.select().from(memberPeriods).where(eq(memberPeriods.memberId, member.id))).length;
    const audits = async () => (await handle.db.select().from(adminAuditLog)).length;
    const [periodsBefore, auditsBefore] = [await periods(), await audits()];
    for (const note of ["", "   ", "x".repeat(201), "two\nlines"]) {
      const answer = await act(member.id, { intent: "gift", note });
      expect(answer.status, JSON.stringify(note)).toBe(400);
      expect((answer.body.fieldErrors as Record<string, string>).note).toMatch(/note/i);
      expect(answer.body.values).toEqual({ note });
    }
    expect(await act(member.id, { intent: "gift" }).then((a) => a.status)).toBe(400);
    expect(await act(member.id, { intent: "nonsense" }).then((a) => a.status)).toBe(400);
    expect((await memberRow(member.id)).paidUntil).toBe("2025-10-10");
    expect(await periods()).toBe(periodsBefore);
    expect(await audits()).toBe(auditsBefore);
    // 200 characters is allowed.
    expect((await act(member.id, { intent: "gift", note: "y".repeat(200) })).status).toBe(302);
  });
});

describe("Cancel membership", () => {
  it("cancels at period end, out of MRR, and a second cancel is refused", async () => {
    const { member } = await joinByPayment("cancel@example.test", "creative-healer");
    const before = await memberFigures(handle.db);
    const answer = await act(member.id, { intent: "cancel" });
    expect(answer.status).toBe(302);
    expect(toastOf(answer)).toMatchObject({
      title: "Membership cancelled",
      description: expect.stringContaining("10 October 2025"),
    });
    const row = await memberRow(member.id);
    expect(row).toMatchObject({ status: "cancelled", paidUntil: "2025-10-10" });
    expect(row.cancelledAt).not.toBeNull();
    const after = await memberFigures(handle.db);
    expect(before.mrrCents - after.mrrCents).toBe(20_000);
    expect(after.counts.cancelled - before.counts.cancelled).toBe(1);
    const again = await act(member.id, { intent: "cancel" });
    expect(again.status).toBe(409);
  });
});

describe("Resend renewal link", () => {
  it("queues one email for the member, carrying their id, with a toast", async () => {
    const { member } = await joinByPayment("resend@example.test");
    const mine = async () => handle.db.select().from(emailOutbox).where(eq(emailOutbox.memberId, member.id));
    const before = await mine();
    const answer = await act(member.id, { intent: "resend" });
    expect(answer.status).toBe(302);
    expect(toastOf(answer)).toMatchObject({
      title: "Renewal link sent",
      description: "Emailed to resend@example.test.",
    });
    const after = await mine();
    expect(after).toHaveLength(before.length + 1);
    const sent = after.find((e) => !before.some((b) => b.id === e.id))!;
    expect(sent).toMatchObject({ toAddress: "resend@example.test", memberId: member.id });
    expect(sent.textBody).toContain("/account/renew?token=");
    // The member's page lists it.
    const shown = await page(member.id);
    expect((shown.body.emails as { subject: string }[]).map((e) => e.subject)).toContain(sent.subject);
  });
});
