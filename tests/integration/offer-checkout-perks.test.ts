import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import {
  discountCodes,
  emailOutbox,
  members,
  membershipTiers,
  orderLines,
  orders,
  stockHolds,
  ticketOptions,
  tickets,
  waitlistEntries,
} from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { createMemberSession } from "~/memberships/member-session.server";
import { submitOfferCheckout } from "~/orders/offer-checkout.server";
import { recordPayment } from "~/orders/payment-events.server";
import type { PaymentProvider } from "~/payments/provider";
import { createSimulatorProvider } from "~/payments/simulator.server";
import { codeUsesNow } from "~/pricing/discount-code-uses.server";
import * as joinRoute from "~/routes/waiting-list";
import * as offerRoute from "~/routes/waiting-list-offer";
import { returnUnits } from "~/stock/hold-sales.server";
import { offerFreedSeats } from "~/waitlist/offers.server";
import { buyer, checkout, orderIdFrom } from "../support/checkout";
import { routeAnswer } from "../support/route-answer";
import { createTestDatabase, testContext } from "../support/test-db";

/*
 * Issue 40: the waiting-list offer's checkout prices the offered seats with the one rule. A signed-in
 * active member's perk applies (taken under her member lock with the order, as in /checkout), and an
 * offer that comes to R 0.00 is confirmed at once without the provider. A discount code in the page's
 * URL prices the seats too (the better of perk and code per seat), its use taken with the offer's hold.
 */
const WORKSHOP = "Transform Tablecloth into Wrap Around Skirt";
const SITE = "http://localhost:3000";
const START = new Date("2025-09-10T10:00:00+02:00");
const engine = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";

let handle: DatabaseHandle;
let clock: ReturnType<typeof fixedClock>;
let payments = 0;

beforeEach(async () => {
  handle = await createTestDatabase();
  clock = fixedClock(START);
  await handle.db.update(ticketOptions).set({ capacity: 2 }).where(eq(ticketOptions.eventId, "tablecloth-workshop"));
});
afterEach(() => handle?.close());

const context = () => testContext(handle, { clock, config: { siteUrl: SITE } });

async function member(email: string, tierSlug: string, paidUntil = "2025-10-10") {
  const [row] = await handle.db
    .insert(members)
    .values({ email, name: "Lerato Mokoena-Pillay", phone: "082 555 0199", tierSlug, paidUntil, joinedAt: START })
    .returning();
  return (await createMemberSession(handle.db, context(), row!.id)).split(";", 1)[0]!;
}

/** Sells out the workshop's two seats, puts `email` on the waiting list for `seats`, and frees them: her offer's token. */
async function offeredTo(email: string, seats: number) {
  const sold: string[] = [];
  for (let i = 0; i < 2; i++) {
    const orderId = orderIdFrom(await checkout(handle, "workshop", WORKSHOP, { clock }));
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
    const n = payments++;
    await recordPayment(handle.db, {
      event: { eventId: `msg_offer_${n}`, provider: "simulator", eventType: "payment.succeeded", payload: {} },
      orderId,
      paymentId: `p_offer_${n}`,
      amountCents: order!.amountCents,
      now: clock.now(),
      mail: { siteUrl: SITE, ownerEmail: "owner@example.test", secret: "test-secret-test-secret-test-secret" },
    });
    sold.push(orderId);
  }
  const [option] = await handle.db.select().from(ticketOptions).where(eq(ticketOptions.eventId, "tablecloth-workshop"));
  const joined = await routeAnswer(() =>
    joinRoute.action({
      request: new Request(`${SITE}/waiting-list/${option!.id}`, {
        method: "POST",
        body: new URLSearchParams({ name: "Lerato Mokoena-Pillay", email, seats: String(seats) }),
      }),
      params: { optionId: String(option!.id) },
      context: context(),
    } as never),
  );
  expect(joined.status).toBe(303);
  for (const orderId of sold.slice(0, seats))
    await handle.db.transaction((tx) => returnUnits(tx, orderId, clock.now()));
  expect(await offerFreedSeats(handle.db, clock.now(), SITE)).toBe(1);
  const [entry] = await handle.db.select().from(waitlistEntries).where(eq(waitlistEntries.email, email));
  expect(entry).toMatchObject({ status: "offered", seats });
  return entry!.offerToken!;
}

const offerPage = (token: string, cookie?: string, code?: string) =>
  routeAnswer(() =>
    offerRoute.loader({
      request: new Request(`${SITE}/waiting-list/offer/${token}${code ? `?code=${code}` : ""}`, {
        headers: cookie ? { Cookie: cookie } : {},
      }),
      params: { token },
      context: context(),
    } as never),
  );

/** The offer's checkout posted from a browser with `cookie`, through a provider that counts what it is asked for. */
async function postOffer(token: string, cookie: string | undefined, email: string, code?: string) {
  const simulator = createSimulatorProvider();
  const sent: number[] = [];
  const provider: PaymentProvider = {
    ...simulator,
    createCheckout: (input) => {
      sent.push(input.amountCents);
      return simulator.createCheckout(input);
    },
  };
  const request = new Request(`${SITE}/waiting-list/offer/${token}${code ? `?code=${code}` : ""}`, {
    method: "POST",
    headers: cookie ? { Cookie: cookie } : {},
    body: new URLSearchParams({ ...buyer, email }),
  });
  return { result: await submitOfferCheckout(request, token, context(), provider), sent };
}

async function buyOffer(token: string, cookie: string | undefined, email: string, code?: string) {
  const { result, sent } = await postOffer(token, cookie, email, code);
  if (!(result instanceof Response)) throw new Error(`expected a redirect, got ${JSON.stringify(result.toast)}`);
  const location = result.headers.get("Location")!;
  const orderId = location.includes("/payments/simulator/")
    ? orderIdFrom(result)
    : new URL(location).searchParams.get("orderId")!;
  const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
  const lines = await handle.db.select().from(orderLines).where(eq(orderLines.orderId, orderId));
  return { order: order!, lines, sent, location };
}

describe(`a waiting-list offer bought by a signed-in member (${engine})`, () => {
  it("a Creative Bee member's offered seat is 10% less, on the page, in the order and at the provider", async () => {
    const email = "creative.wait@example.test";
    const cookie = await member(email, "creative-bee");
    const token = await offeredTo(email, 1);
    const noCode = { typed: "", error: null, note: null };
    expect((await offerPage(token)).body.price).toEqual({
      listCents: 25000,
      totalCents: 25000,
      reason: null,
      code: noCode,
    });
    expect((await offerPage(token, cookie)).body.price).toEqual({
      listCents: 25000,
      totalCents: 22500,
      reason: "10% Creative Bee",
      code: noCode,
    });

    const { order, lines, sent } = await buyOffer(token, cookie, email);
    expect(order).toMatchObject({ status: "pending", amountCents: 22500, provider: "simulator" });
    expect(lines).toEqual([
      expect.objectContaining({ quantity: 1, unitPriceCents: 25000, discountCents: 2500, perkFreeTickets: 0 }),
    ]);
    expect(lines[0]!.perkMemberId).not.toBeNull();
    expect(sent).toEqual([22500]);
    const [hold] = await handle.db.select().from(stockHolds).where(eq(stockHolds.orderId, order.id));
    expect(hold).toMatchObject({ status: "held", quantity: 1 });
  });

  it("free workshops make two offered seats R 0.00: confirmed at once, no provider, tickets issued", async () => {
    const email = "journey.wait@example.test";
    const cookie = await member(email, "glow-bee-journey");
    const token = await offeredTo(email, 2);
    const page = await offerPage(token, cookie);
    expect(page.body.price).toMatchObject({ listCents: 50000, totalCents: 0 });

    const { order, lines, sent, location } = await buyOffer(token, cookie, email);
    expect(sent).toEqual([]);
    expect(location).toContain("/order-confirmation?status=success");
    expect(order).toMatchObject({ status: "paid", amountCents: 0, provider: "free" });
    expect(lines[0]).toMatchObject({ quantity: 2, discountCents: 50000, perkFreeTickets: 2 });
    expect(await handle.db.select().from(tickets).where(eq(tickets.orderId, order.id))).toHaveLength(2);
    const holds = await handle.db.select().from(stockHolds).where(eq(stockHolds.orderId, order.id));
    expect(holds.map((h) => [h.status, h.quantity])).toEqual([["converted", 2]]);
    expect((await handle.db.select().from(waitlistEntries).where(eq(waitlistEntries.email, email)))[0]).toMatchObject({
      status: "claimed",
    });
    const mail = await handle.db.select().from(emailOutbox).where(eq(emailOutbox.orderId, order.id));
    expect(mail.find((m) => m.toAddress === email)?.attachments?.length).toBeGreaterThan(0);
  });

  it("counts the month's free tickets: one left of two seats is one free and one at full price", async () => {
    await handle.db
      .update(membershipTiers)
      .set({ perkFreeTicketsPerMonth: 1 })
      .where(eq(membershipTiers.slug, "glow-bee-journey"));
    const email = "one.left@example.test";
    const cookie = await member(email, "glow-bee-journey");
    const token = await offeredTo(email, 2);
    const { order, lines, sent } = await buyOffer(token, cookie, email);
    expect(order).toMatchObject({ status: "pending", amountCents: 25000 });
    expect(lines[0]).toMatchObject({ discountCents: 25000, perkFreeTickets: 1 });
    expect(sent).toEqual([25000]);
  });

  it("a lapsed member's offer is priced as anyone's", async () => {
    const email = "lapsed.wait@example.test";
    const cookie = await member(email, "creative-bee", "2025-07-01");
    const token = await offeredTo(email, 1);
    expect((await offerPage(token, cookie)).body.price).toMatchObject({ totalCents: 25000, reason: null });
    const { order, lines, sent } = await buyOffer(token, cookie, email);
    expect(order.amountCents).toBe(25000);
    expect(lines[0]).toMatchObject({ discountCents: 0, perkMemberId: null });
    expect(sent).toEqual([25000]);
  });
});

describe(`a discount code on a waiting-list offer (${engine})`, () => {
  async function addCode(code: string, fields: Partial<typeof discountCodes.$inferInsert> = {}) {
    const [row] = await handle.db
      .insert(discountCodes)
      .values({ code, kind: "percent", amount: 20, scope: "events", ...fields })
      .returning();
    return row!;
  }
  const usesAt = (codeId: number, at: Date) =>
    codeUsesNow(handle.db, codeId, "", at, context().config.payment.stockHoldMinutes).then((u) => u.total);

  it("20% off two offered seats: on the page, in the order and at the provider; the use lives with the hold", async () => {
    const code = await addCode("WAIT20", { totalUses: 1 });
    const email = "code.wait@example.test";
    const token = await offeredTo(email, 2);
    const page = await offerPage(token, undefined, "wait20");
    expect(page.body.price).toEqual({
      listCents: 50000,
      totalCents: 40000,
      reason: "20% WAIT20",
      code: { typed: "wait20", error: null, note: "The code WAIT20 is applied." },
    });

    const { order, lines, sent } = await buyOffer(token, undefined, email, "wait20");
    expect(order).toMatchObject({
      status: "pending",
      amountCents: 40000,
      provider: "simulator",
      discountCodeId: code.id,
    });
    expect(lines).toEqual([
      expect.objectContaining({
        quantity: 2,
        unitPriceCents: 25000,
        discountCents: 10000,
        discountReason: "20% WAIT20",
      }),
    ]);
    expect(sent).toEqual([40000]);
    // The offer's hold, now the order's, may outlast the usual hold time: the code's use lasts as long.
    const [hold] = await handle.db.select().from(stockHolds).where(eq(stockHolds.orderId, order.id));
    expect(hold).toMatchObject({ status: "held", quantity: 2 });
    const lapses = hold!.expiresAt.getTime();
    expect(await usesAt(code.id, new Date(lapses - 60_000))).toBe(1);
    expect(await usesAt(code.id, new Date(lapses + 60_000))).toBe(0);
  });

  it("a member's free seat beats the code, the other seat takes the better price of the two", async () => {
    await handle.db
      .update(membershipTiers)
      .set({ perkFreeTicketsPerMonth: 1 })
      .where(eq(membershipTiers.slug, "glow-bee-journey"));
    const code = await addCode("HALF", { amount: 50 });
    const email = "perk.code@example.test";
    const cookie = await member(email, "glow-bee-journey");
    const token = await offeredTo(email, 2);
    // One line of two seats: the perk takes R 250.00 off it (one seat free), the code R 250.00 (half): the perk on a tie.
    const { order, lines } = await buyOffer(token, cookie, email, "HALF");
    expect(lines[0]).toMatchObject({ discountCents: 25000, perkFreeTickets: 1 });
    expect(order).toMatchObject({ amountCents: 25000, discountCodeId: null });
    expect(await usesAt(code.id, clock.now())).toBe(0);
  });

  it("a used-up code is refused in words: no order, the offer still open, its seats still held for her", async () => {
    const code = await addCode("ONCE", { totalUses: 1, scope: "everything" });
    // Its one use taken by another buyer's earrings, held unpaid at the one-item checkout.
    orderIdFrom(
      await checkout(handle, "product", "Candy Earrings", { clock, fields: { ...buyer, discountCode: "ONCE" } }),
    );
    expect(await usesAt(code.id, clock.now())).toBe(1);

    const email = "second.wait@example.test";
    const token = await offeredTo(email, 1);
    const page = await offerPage(token, undefined, "once");
    expect(page.body.price).toMatchObject({
      totalCents: 25000,
      reason: null,
      code: { typed: "once", error: "The code ONCE has been used up.", note: null },
    });
    const ordersBefore = await handle.db.select({ id: orders.id }).from(orders);
    const { result, sent } = await postOffer(token, undefined, email, "once");
    expect(result).toMatchObject({ ok: false, codeError: "The code ONCE has been used up.", discountCode: "once" });
    expect(sent).toEqual([]);
    expect(await handle.db.select({ id: orders.id }).from(orders)).toHaveLength(ordersBefore.length);
    const [entry] = await handle.db.select().from(waitlistEntries).where(eq(waitlistEntries.email, email));
    expect(entry).toMatchObject({ status: "offered" });
    const held = await handle.db.select().from(stockHolds).where(eq(stockHolds.waitlistEntryId, entry!.id));
    expect(held.map((h) => [h.status, h.orderId])).toEqual([["held", null]]);
    expect(await usesAt(code.id, clock.now())).toBe(1);
    // Without the code the same offer goes through at full price.
    expect((await buyOffer(token, undefined, email)).order).toMatchObject({ amountCents: 25000, discountCodeId: null });
  });
});
