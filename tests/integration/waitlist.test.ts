import { and, asc, eq, like } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, emailOutbox, orders, stockHolds, ticketOptions, waitlistEntries } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { recordPayment } from "~/orders/payment-events.server";
import { createSimulatorProvider } from "~/payments/simulator.server";
import { submitOfferCheckout } from "~/orders/offer-checkout.server";
import * as joinRoute from "~/routes/waiting-list";
import * as offerRoute from "~/routes/waiting-list-offer";
import * as ownerRoute from "~/routes/admin/event-waiting-list";
import * as settingsRoute from "~/routes/admin/settings";
import { returnUnits } from "~/stock/hold-sales.server";
import { offerFreedSeats } from "~/waitlist/offers.server";
import { offerWindowHours, saveOfferWindow } from "~/waitlist/offer-window.server";
import { buyer, checkout, orderIdFrom } from "../support/checkout";
import { routeAnswer } from "../support/route-answer";
import { createTestDatabase, testContext } from "../support/test-db";

const WORKSHOP = "Transform Tablecloth into Wrap Around Skirt";
const SITE = "http://localhost:3000";
const START = new Date("2025-09-10T10:00:00+02:00");
const HOUR = 3_600_000;
const mail = { siteUrl: SITE, ownerEmail: "owner@example.test", secret: "test-secret-test-secret-test-secret" };
const engine = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";

let handle: DatabaseHandle;
let clock: ReturnType<typeof fixedClock>;
let optionId: number;
let payments = 0;

beforeEach(async () => {
  handle = await createTestDatabase();
  clock = fixedClock(START);
  const [option] = await handle.db
    .update(ticketOptions)
    .set({ capacity: 2 })
    .where(eq(ticketOptions.eventId, "tablecloth-workshop"))
    .returning();
  optionId = option!.id;
});
afterEach(() => handle?.close());

const context = () => testContext(handle, { clock, config: { siteUrl: SITE } });
const call = (fn: (args: never) => unknown, request: Request, params: Record<string, string>) =>
  routeAnswer(() => fn({ request, params, context: context() } as never));
const post = (path: string, fields: Record<string, string>) =>
  new Request(`${SITE}${path}`, { method: "POST", body: new URLSearchParams(fields) });

const join = (fields: Record<string, string>) =>
  call(joinRoute.action, post(`/waiting-list/${optionId}`, fields), { optionId: String(optionId) });

async function buyAndPay(seats = "1") {
  const result = await checkout(handle, "workshop", WORKSHOP, { clock, fields: { ...buyer, seats } });
  const orderId = orderIdFrom(result);
  await pay(orderId);
  return orderId;
}

async function pay(orderId: string) {
  const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
  const n = payments++;
  const paid = await recordPayment(handle.db, {
    event: { eventId: `msg_wait_${n}`, provider: "simulator", eventType: "payment.succeeded", payload: {} },
    orderId,
    paymentId: `p_wait_${n}`,
    amountCents: order!.amountCents,
    now: clock.now(),
    mail,
  });
  expect(paid.outcome).toBe("paid");
}

/** The refund's restock: the seat's sale is undone and the seat is free again (what a refund with "back on sale" does). */
const refundSeat = (orderId: string) => handle.db.transaction((tx) => returnUnits(tx, orderId, clock.now()));

const entries = () => handle.db.select().from(waitlistEntries).orderBy(asc(waitlistEntries.id));
const offerEmails = () =>
  handle.db
    .select()
    .from(emailOutbox)
    .where(like(emailOutbox.subject, "Seats held for you%"))
    .orderBy(asc(emailOutbox.id));
const tokenIn = (text: string) => /\/waiting-list\/offer\/([A-Za-z0-9_-]{32})/.exec(text)?.[1] ?? null;

async function soldOutWithTwoWaiting() {
  const first = await buyAndPay();
  const second = await buyAndPay();
  const page = await call(joinRoute.loader, new Request(`${SITE}/waiting-list/${optionId}`), {
    optionId: String(optionId),
  });
  expect(page.body.target.joinable).toBe(true);
  expect((await join({ name: "Third Person", email: "third@example.com", seats: "1" })).location).toBe(
    `/waiting-list/${optionId}?joined=1`,
  );
  expect((await join({ name: "Fourth Person", email: "fourth@example.com", seats: "1" })).status).toBe(303);
  return { first, second };
}

describe(`the waiting list (${engine})`, () => {
  it("join: only when sold out, bad input refused with a field message, the same email once", async () => {
    const notYet = await join({ name: "Early Bird", email: "early@example.com", seats: "1" });
    expect(notYet.status).toBe(409);
    await buyAndPay("2");
    for (const [fields, field] of [
      [{ name: "", email: "a@example.com", seats: "1" }, "name"],
      [{ name: "Ann", email: "not-an-email", seats: "1" }, "email"],
      [{ name: "Ann", email: "a@example.com", seats: "5" }, "seats"],
      [{ name: "Ann", email: "a@example.com", seats: "0" }, "seats"],
      [{ name: "Ann\nBob", email: "a@example.com", seats: "1" }, "name"],
    ] as const) {
      const answer = await join(fields);
      expect(answer.status).toBe(400);
      expect(answer.body.fieldErrors[field]).toBeTruthy();
    }
    expect(await entries()).toHaveLength(0);
    expect((await join({ name: "Ann Dlamini", email: "Ann@Example.com", seats: "2" })).status).toBe(303);
    const again = await join({ name: "Ann D", email: " ann@example.COM ", seats: "1" });
    expect(again.status).toBe(409);
    expect(again.body.fieldErrors.email).toContain("is already on the waiting list for " + WORKSHOP);
    expect(await entries()).toMatchObject([{ email: "ann@example.com", seats: 2, status: "waiting" }]);
  });

  it(
    "capacity 2 sells out, a third and a fourth join; a refund frees a seat and the third is offered it; nobody " +
      "else can buy it; the fourth is offered only when the third's offer lapses, and their link checks it out",
    async () => {
      const { second } = await soldOutWithTwoWaiting();
      // A freed seat waits for the timed work; with nothing free, a pass offers nothing.
      expect(await offerFreedSeats(handle.db, clock.now(), SITE)).toBe(0);
      await refundSeat(second);
      expect(await offerFreedSeats(handle.db, clock.now(), SITE)).toBe(1);
      expect(await offerFreedSeats(handle.db, clock.now(), SITE)).toBe(0);
      const [third, fourth] = await entries();
      expect(third).toMatchObject({ status: "offered" });
      expect(third!.offerExpiresAt).toEqual(new Date(START.getTime() + 24 * HOUR));
      expect(fourth).toMatchObject({ status: "waiting" });
      const [email] = await offerEmails();
      expect(email).toMatchObject({ toAddress: "third@example.com", bodyExpiresOnSend: true });
      expect(email!.textBody).toContain("24 hours");
      const thirdToken = tokenIn(email!.textBody)!;
      expect(thirdToken).toBe(third!.offerToken);

      // The held seat is counted like any hold: nobody else can buy it.
      const stranger = await checkout(handle, "workshop", WORKSHOP, { clock });
      expect(stranger).toMatchObject({ toast: { description: "The workshop on Saturday, 4 October 2025 is full." } });

      // 23 hours on, the offer still holds; at 24 hours it lapses and the fourth is offered in the same pass.
      clock.set(new Date(START.getTime() + 23 * HOUR));
      expect(await offerFreedSeats(handle.db, clock.now(), SITE)).toBe(0);
      expect((await entries())[1]).toMatchObject({ status: "waiting" });
      clock.set(new Date(START.getTime() + 24 * HOUR));
      expect(await offerFreedSeats(handle.db, clock.now(), SITE)).toBe(1);
      const [lapsed, offered] = await entries();
      expect(lapsed).toMatchObject({ status: "lapsed" });
      expect(offered).toMatchObject({ status: "offered" });
      const lapsedMail = await handle.db
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.subject, `Your offer has ended: ${WORKSHOP}`));
      expect(lapsedMail.map((m) => m.toAddress)).toEqual(["third@example.com"]);
      const held = await handle.db.select().from(stockHolds).where(eq(stockHolds.status, "held"));
      expect(held).toMatchObject([{ waitlistEntryId: offered!.id, orderId: null, quantity: 1 }]);

      // The third's link now says so in words.
      const ended = await call(offerRoute.loader, new Request(`${SITE}/waiting-list/offer/${thirdToken}`), {
        token: thirdToken,
      });
      expect(ended.status).toBe(410);
      expect(ended.body.reason).toContain("This offer has ended");

      // The fourth's link opens checkout with the seat held and buys it: the offer's hold becomes the order's.
      const fourthToken = tokenIn((await offerEmails())[1]!.textBody)!;
      const page = await call(offerRoute.loader, new Request(`${SITE}/waiting-list/offer/${fourthToken}`), {
        token: fourthToken,
      });
      expect(page.body).toMatchObject({ open: true, seats: 1, itemName: WORKSHOP, priceCents: 25000 });
      const bought = await submitOfferCheckout(
        post(`/waiting-list/offer/${fourthToken}`, { ...buyer, email: "fourth@example.com" }),
        fourthToken,
        context(),
        createSimulatorProvider(),
      );
      const orderId = orderIdFrom(bought);
      const [hold] = await handle.db.select().from(stockHolds).where(eq(stockHolds.id, held[0]!.id));
      expect(hold).toMatchObject({ orderId, status: "held", waitlistEntryId: offered!.id });
      expect((await entries())[1]).toMatchObject({ status: "claimed" });
      await pay(orderId);
      const sold = await handle.db
        .select()
        .from(stockHolds)
        .where(and(like(stockHolds.stockKey, `ticket:${optionId}:%`), eq(stockHolds.status, "converted")));
      expect(sold.reduce((n, h) => n + h.quantity, 0)).toBe(2);

      // A used link says so, and cannot buy twice.
      const used = await call(offerRoute.loader, new Request(`${SITE}/waiting-list/offer/${fourthToken}`), {
        token: fourthToken,
      });
      expect(used.body.reason).toContain("already been used");
      const twice = await submitOfferCheckout(
        post(`/waiting-list/offer/${fourthToken}`, buyer),
        fourthToken,
        context(),
        createSimulatorProvider(),
      );
      expect(twice).toMatchObject({ ok: false, toast: { description: expect.stringContaining("already been used") } });
    },
  );

  it("a seat freed while the list is empty goes back on sale; a request that does not fit waits", async () => {
    const first = await buyAndPay("2");
    expect((await join({ name: "Big Group", email: "group@example.com", seats: "3" })).status).toBe(303);
    await refundSeat(first);
    // Two seats free, the only person wants three: nothing is held, the seats are on sale again.
    expect(await offerFreedSeats(handle.db, clock.now(), SITE)).toBe(0);
    expect(await checkout(handle, "workshop", WORKSHOP, { clock })).toBeInstanceOf(Response);
  });

  it("the timed work run twice at once, as on two instances, offers each freed seat once", async () => {
    const { second } = await soldOutWithTwoWaiting();
    await refundSeat(second);
    const runs = await Promise.all([
      offerFreedSeats(handle.db, clock.now(), SITE),
      offerFreedSeats(handle.db, clock.now(), SITE),
      offerFreedSeats(handle.db, clock.now(), SITE),
    ]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await offerEmails()).toHaveLength(1);
    expect(await handle.db.select().from(stockHolds).where(eq(stockHolds.status, "held"))).toHaveLength(1);
  });

  it("the owner sees size, value and offers, and Remove releases an offer's seat to the next person", async () => {
    await saveOfferWindow(handle.db, 48, clock.now());
    const { second } = await soldOutWithTwoWaiting();
    await refundSeat(second);
    await offerFreedSeats(handle.db, clock.now(), SITE);
    const [third, fourth] = await entries();
    expect(third!.offerExpiresAt).toEqual(new Date(START.getTime() + 48 * HOUR));
    const page = await call(ownerRoute.loader, new Request(`${SITE}/admin/events/tablecloth-workshop/waiting-list`), {
      id: "tablecloth-workshop",
    });
    expect(page.body.lists).toMatchObject([
      {
        people: 2,
        valueCents: 50000,
        entries: [
          { name: "Third Person", offered: true, state: expect.stringMatching(/^Offer until /) },
          { name: "Fourth Person", offered: false, state: "Waiting" },
        ],
      },
    ]);
    const removed = await call(
      ownerRoute.action,
      post("/admin/events/tablecloth-workshop/waiting-list", { intent: "remove", entryId: String(third!.id) }),
      { id: "tablecloth-workshop" },
    );
    expect(removed.status).toBe(302);
    expect(await entries()).toMatchObject([
      { id: third!.id, status: "removed" },
      { id: fourth!.id, status: "offered" },
    ]);
    expect((await offerEmails()).map((e) => e.toAddress)).toEqual(["third@example.com", "fourth@example.com"]);
    expect((await handle.db.select().from(adminAuditLog)).map((a) => a.action)).toContain("waitlist.remove");
    const bad = await call(
      ownerRoute.action,
      post("/admin/events/tablecloth-workshop/waiting-list", { intent: "remove", entryId: "x" }),
      { id: "tablecloth-workshop" },
    );
    expect(bad.status).toBe(400);
  });

  it("capacity raised by the owner: the next pass offers the new seats in line order", async () => {
    await soldOutWithTwoWaiting();
    await handle.db.update(ticketOptions).set({ capacity: 4 }).where(eq(ticketOptions.id, optionId));
    expect(await offerFreedSeats(handle.db, clock.now(), SITE)).toBe(2);
    expect((await entries()).map((e) => e.status)).toEqual(["offered", "offered"]);
  });

  it("the offer window is set on the Settings page: whole hours from 1 to 168, bad input changes nothing", async () => {
    const save = (offerHours: string) =>
      call(settingsRoute.action, post("/admin/settings", { intent: "offer-window", offerHours }), {});
    for (const bad of ["0", "169", "1.5", "", "abc", "-3", "24 hours"]) {
      const answer = await save(bad);
      expect(answer.status).toBe(400);
      expect(answer.body.offerWindowError).toBe("Offer window must be a whole number of hours from 1 to 168.");
    }
    expect(await offerWindowHours(handle.db)).toBe(24);
    expect((await save("72")).status).toBe(302);
    expect(await offerWindowHours(handle.db)).toBe(72);
  });
});
