import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { members, orders } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { howMemberPays } from "~/memberships/card-subscriptions.server";
import { findMemberByEmail } from "~/memberships/member-row.server";
import { memberPayments } from "~/memberships/members.server";
import { action as simulatorAction, loader as simulatorLoader } from "~/routes/payments-simulator";
import { answerOf } from "../support/route-answer";
import { checkout, orderIdFrom } from "../support/checkout";
import { createTestDatabase, testContext } from "../support/test-db";

// The payment simulator as a card-subscription provider: the whole flow with no PayFast keys.
let handle: DatabaseHandle;
const clock = fixedClock("2025-03-31T09:00:00+02:00");
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

/* eslint-disable @typescript-eslint/no-explicit-any */
async function press(orderId: string, intent: string) {
  const request = new Request(`http://localhost/payments/simulator/${orderId}`, {
    method: "POST",
    body: new URLSearchParams({ intent }),
  });
  return answerOf(
    await simulatorAction({ request, params: { orderId }, context: testContext(handle, { clock }) } as any).catch(
      (thrown: unknown) => thrown,
    ),
  );
}
async function view(orderId: string) {
  const request = new Request(`http://localhost/payments/simulator/${orderId}`);
  return (
    await answerOf(
      await simulatorLoader({ request, params: { orderId }, context: testContext(handle, { clock }) } as any),
    )
  ).body;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

describe("the simulator's card subscription", () => {
  it("offers Subscribe for a membership only, then runs, declines and cancels charges as PayFast would", async () => {
    const product = orderIdFrom(await checkout(handle, "product", "Candy Earrings", { clock }));
    expect((await view(product)).card).toMatchObject({ offered: false, subscription: null });
    expect((await press(product, "subscribe")).status).toBe(409);

    const email = "nomvula.card@example.com";
    const id = orderIdFrom(
      await checkout(handle, "membership", "style-starter", {
        clock,
        fields: { firstName: "Nomvula", lastName: "Dlamini", email, phone: "+27 82 555 0199", address: "3 Long St" },
      }),
    );
    expect((await view(id)).card).toMatchObject({ offered: true });
    const subscribed = await press(id, "subscribe");
    expect(subscribed.location).toBe(`/order-confirmation?status=success&orderId=${id}`);
    const member = (await findMemberByEmail(handle.db, email))!;
    // 31 March + one calendar month is 30 April; the simulator's next charge falls on it.
    expect(member).toMatchObject({ status: "active", paidUntil: "2025-04-30" });
    expect(await howMemberPays(handle.db, member.id)).toMatchObject({ kind: "card", renewsOn: "2025-04-30" });
    expect((await view(id)).card.subscription).toMatchObject({ status: "ACTIVE", runDate: "2025-04-30" });
    expect((await press(id, "subscribe")).status).toBe(409);

    clock.set("2025-04-30T06:00:00+02:00");
    expect((await press(id, "charge")).body).toEqual({
      message: expect.stringMatching(/^Charged R .+\. The membership is paid until 30 May 2025\.$/),
    });
    expect((await press(id, "fail-next")).body.message).toMatch(/will be declined/);
    expect((await view(id)).card.subscription.failNext).toBe(true);
    expect((await press(id, "charge")).body.message).toMatch(/declined/);
    const reload = async () => (await handle.db.select().from(members).where(eq(members.id, member.id)))[0]!;
    expect((await reload()).paidUntil).toBe("2025-05-30");
    expect(await memberPayments(handle.db, member.id)).toHaveLength(2);
    const renewals = await handle.db.select().from(orders).where(eq(orders.memberId, member.id));
    expect(renewals.filter((o) => o.status === "paid")).toHaveLength(2);

    expect((await press(id, "provider-cancel")).body.message).toMatch(/cancelled at the provider/);
    expect(await reload()).toMatchObject({ status: "cancelled", paidUntil: "2025-05-30" });
    expect((await view(id)).card.subscription.status).toBe("CANCELLED");
    expect((await press(id, "charge")).body.message).toMatch(/cancelled/);
    expect((await reload()).paidUntil).toBe("2025-05-30");
  });

  it("still takes a one-month payment with Pay, renewed by email", async () => {
    const email = "one.month@example.com";
    const id = orderIdFrom(
      await checkout(handle, "membership", "style-starter", {
        clock,
        fields: { firstName: "Ayanda", lastName: "Khumalo", email, phone: "+27 82 555 0100", address: "3 Long St" },
      }),
    );
    await press(id, "pay");
    const member = (await findMemberByEmail(handle.db, email))!;
    expect(member.status).toBe("active");
    expect(await howMemberPays(handle.db, member.id)).toEqual({ kind: "email" });
    expect((await view(id)).card).toMatchObject({ offered: false, subscription: null });
  });
});
