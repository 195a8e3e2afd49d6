import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { erasureRequests, members, memberSubscriptions, simulatedSubscriptions } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { howMemberPays, stopCardCharges } from "~/memberships/card-subscriptions.server";
import { findMemberByEmail } from "~/memberships/member-row.server";
import { runDueErasures, scheduleErasure } from "~/privacy/erasure.server";
import { action as simulatorAction } from "~/routes/payments-simulator";
import { checkout, orderIdFrom } from "../support/checkout";
import { createTestDatabase, testContext } from "../support/test-db";

// A member who pays by card asks for her data to be erased: the monthly charge stops at the provider
// before her data goes, and an unreachable provider leaves everything as it was until the next pass.
let handle: DatabaseHandle;
const clock = fixedClock("2025-03-10T09:00:00+02:00");
const AFTER_WINDOW = new Date("2025-03-18T09:00:00+02:00");
const EMAIL = "thandi.card@example.com";

beforeAll(async () => {
  handle = await createTestDatabase();
  const orderId = orderIdFrom(
    await checkout(handle, "membership", "style-starter", {
      clock,
      fields: {
        firstName: "Thandi",
        lastName: "Mokoena",
        email: EMAIL,
        phone: "+27 82 555 0142",
        address: "3 Long St",
      },
    }),
  );
  const request = new Request(`http://localhost/payments/simulator/${orderId}`, {
    method: "POST",
    body: new URLSearchParams({ intent: "subscribe" }),
  });
  await simulatorAction({ request, params: { orderId }, context: testContext(handle, { clock }) } as never).catch(
    (thrown: unknown) => thrown,
  );
}, 60_000);
afterAll(() => handle?.close());

const cardOf = async (memberId: number) =>
  (await handle.db.select().from(memberSubscriptions).where(eq(memberSubscriptions.memberId, memberId)))[0]!;

describe("erasing the data of a member who pays by card", () => {
  it("waits, changing nothing, while the card provider cannot be reached", async () => {
    const member = (await findMemberByEmail(handle.db, EMAIL))!;
    expect(await howMemberPays(handle.db, member.id)).toMatchObject({ kind: "card" });
    await scheduleErasure(testContext(handle, { clock }), { email: EMAIL, openOrders: "erase", requestedBy: "person" });
    const unreachable = async () => "unreachable" as const;
    expect(await runDueErasures(handle.db, AFTER_WINDOW, unreachable)).toEqual({ done: 0, waiting: 1 });
    expect(await findMemberByEmail(handle.db, EMAIL)).toMatchObject({ status: "active" });
    expect((await cardOf(member.id)).status).toBe("active");
  });

  it("stops the monthly charge at the provider, then erases her", async () => {
    const member = (await findMemberByEmail(handle.db, EMAIL))!;
    const card = await cardOf(member.id);
    const stopCard = (memberId: number) => stopCardCharges(testContext(handle, { clock }), memberId);
    expect(await runDueErasures(handle.db, AFTER_WINDOW, stopCard)).toEqual({ done: 1, waiting: 0 });
    expect((await cardOf(member.id)).status).toBe("cancelled");
    const [atProvider] = await handle.db
      .select()
      .from(simulatedSubscriptions)
      .where(eq(simulatedSubscriptions.token, card.token!));
    expect(atProvider!.status).toBe("CANCELLED");
    const [erased] = await handle.db.select().from(members).where(eq(members.id, member.id));
    expect(erased).toMatchObject({ status: "cancelled", phone: "" });
    expect(erased!.email).not.toContain("thandi");
    const [request] = await handle.db.select().from(erasureRequests);
    expect(request).toMatchObject({ status: "done", email: null });
  });
});
