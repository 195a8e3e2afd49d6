import { randomUUID } from "node:crypto";
import { and, asc, eq, like } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import {
  catalogItems,
  orderLines,
  orders,
  refundLines,
  refunds,
  stockHolds,
  ticketOptions,
  tickets,
  waitlistEntries,
} from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { lineChargedCents } from "~/orders/line-money";
import { lineRefundChoices } from "~/orders/line-refunds.server";
import { recordPayment } from "~/orders/payment-events.server";
import { requestRefund } from "~/orders/refunds.server";
import { createSimulatorProvider } from "~/payments/simulator.server";
import { checkInByCode } from "~/tickets/check-in.server";
import * as joinRoute from "~/routes/waiting-list";
import { offerFreedSeats } from "~/waitlist/offers.server";
import { bagBrowser } from "../support/bag";
import { buyer, checkout, orderIdFrom } from "../support/checkout";
import { routeAnswer } from "../support/route-answer";
import { createTestDatabase, testContext } from "../support/test-db";

const SITE = "http://localhost:3000";
const START = new Date("2025-09-10T10:00:00+02:00");
const mail = { siteUrl: SITE, ownerEmail: "owner@example.test", secret: "test-secret-test-secret-test-secret" };
const engine = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";
const RUNS = Number(process.env.FC_RUNS ?? 15);

let handle: DatabaseHandle;
const clock = fixedClock(START);
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

const context = () => testContext(handle, { clock, config: { siteUrl: SITE } });
const provider = createSimulatorProvider();
let n = 0;

/** A paid order straight in the table: lines with list prices, quantities and discounts, charged their sum. */
async function paidOrder(lines: { unitPriceCents: number; quantity: number; discountCents: number }[]) {
  const id = randomUUID();
  const amountCents = lines.reduce((sum, l) => sum + lineChargedCents(l), 0);
  await handle.db.insert(orders).values({
    id,
    reference: `HB-T${++n}`,
    orderType: "product",
    itemName: "Mixed",
    amountCents,
    currency: "ZAR",
    status: "paid",
    customerFirstName: "Thandi",
    customerLastName: "Mokoena",
    customerEmail: "thandi@example.com",
    customerPhone: "+27 82 555 0101",
    customerAddress: "12 Jacaranda Street",
    provider: "simulator",
    yocoCheckoutId: `ch_${n}`,
    idempotencyKey: randomUUID(),
    completedAt: START,
    createdAt: START,
    updatedAt: START,
  });
  const rows = await handle.db
    .insert(orderLines)
    .values(lines.map((l, i) => ({ orderId: id, displayName: `Line ${i + 1}`, ...l })))
    .returning();
  return { id, amountCents, lines: rows };
}

const refundLine = (orderId: string, orderLineId: number, units: number, restock = false) =>
  requestRefund(
    context(),
    { orderId, amountCents: 0, restock, key: randomUUID(), line: { orderLineId, units, ticketIds: [] } },
    provider,
  );

describe(`refunds per line (${engine})`, () => {
  it("fast-check: part refunds in any mix never give back more than was charged; all of them give exactly the amount", async () => {
    const line = fc
      .record({ unitPriceCents: fc.integer({ min: 1, max: 90_000 }), quantity: fc.integer({ min: 1, max: 5 }) })
      .chain((l) =>
        fc.record({
          unitPriceCents: fc.constant(l.unitPriceCents),
          quantity: fc.constant(l.quantity),
          discountCents: fc.integer({ min: 0, max: l.unitPriceCents * l.quantity - 1 }),
        }),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 2, maxLength: 4 }),
        fc.array(fc.record({ line: fc.nat(), units: fc.integer({ min: -1, max: 6 }) }), { maxLength: 8 }),
        async (shape, steps) => {
          const order = await paidOrder(shape);
          const charged = (i: number) => lineChargedCents(shape[i]!);
          for (const step of steps) {
            const target = order.lines[step.line % order.lines.length]!;
            await refundLine(order.id, target.id, step.units);
            const [now] = await handle.db.select().from(orders).where(eq(orders.id, order.id));
            expect(now!.refundedCents).toBeLessThanOrEqual(order.amountCents);
            const parts = await handle.db
              .select()
              .from(refundLines)
              .innerJoin(refunds, eq(refunds.id, refundLines.refundId))
              .where(eq(refunds.orderId, order.id));
            order.lines.forEach((l, i) => {
              const mine = parts.filter((p) => p.refund_lines.orderLineId === l.id);
              expect(mine.reduce((s, p) => s + p.refund_lines.amountCents, 0)).toBeLessThanOrEqual(charged(i));
              expect(mine.reduce((s, p) => s + p.refund_lines.units, 0)).toBeLessThanOrEqual(l.quantity);
            });
            expect(now!.refundedCents).toBe(parts.reduce((s, p) => s + p.refunds.amountCents, 0));
          }
          // Then everything left, line by line: exactly the order's amount, and refunded.
          for (const choice of await lineRefundChoices(handle.db, order.id))
            if (choice.left) expect(await refundLine(order.id, choice.id, choice.left)).toMatchObject({ ok: true });
          const [done] = await handle.db.select().from(orders).where(eq(orders.id, order.id));
          expect(done).toMatchObject({ refundedCents: order.amountCents, status: "refunded" });
          expect(await refundLine(order.id, order.lines[0]!.id, 1)).toMatchObject({ ok: false });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("one seat of two refunded and back on sale: the door refuses its ticket, the seat sells again, earrings untouched", async () => {
    const [earrings] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "candy-earrings"));
    const [option] = await handle.db
      .select()
      .from(ticketOptions)
      .where(eq(ticketOptions.eventId, "tablecloth-workshop"));
    const browser = bagBrowser(handle, { clock, clientIp: "10.6.0.1" });
    await browser.post({ intent: "add", kind: "catalog", id: String(earrings!.id), quantity: "2" });
    await browser.post({ intent: "add", kind: "ticket", id: String(option!.id), quantity: "2" });
    const orderId = orderIdFrom(
      await browser.checkout(provider, [...Object.entries(buyer), ["attendee", "Naledi Dlamini"], ["attendee", ""]]),
    );
    const paid = await recordPayment(handle.db, {
      event: { eventId: "msg_lr_1", provider: "simulator", eventType: "payment.succeeded", payload: {} },
      orderId,
      paymentId: "p_lr_1",
      amountCents: 120000,
      now: clock.now(),
      mail,
    });
    expect(paid.outcome).toBe("paid");
    const seatsSold = async () =>
      (
        await handle.db
          .select()
          .from(stockHolds)
          .where(and(like(stockHolds.stockKey, `ticket:${option!.id}:%`), eq(stockHolds.status, "converted")))
      ).reduce((s, h) => s + h.quantity, 0);
    expect(await seatsSold()).toBe(2);

    const choices = await lineRefundChoices(handle.db, orderId);
    const seatLine = choices.find((c) => c.seats)!;
    expect(seatLine.seats!.map((s) => s.name)).toEqual(["Naledi Dlamini", "Thandi Mokoena"]);
    expect(seatLine.amounts).toEqual([25000, 50000]);
    const naledi = seatLine.seats![0]!;
    const refused = await requestRefund(
      context(),
      {
        orderId,
        amountCents: 0,
        restock: true,
        key: randomUUID(),
        line: { orderLineId: seatLine.id, units: 1, ticketIds: [] },
      },
      provider,
    );
    expect(refused).toMatchObject({ ok: false, error: "Choose the seats to refund." });
    const done = await requestRefund(
      context(),
      {
        orderId,
        amountCents: 999,
        restock: true,
        key: randomUUID(),
        line: { orderLineId: seatLine.id, units: 2, ticketIds: [naledi.id] },
      },
      provider,
    );
    expect(done).toMatchObject({ ok: true, state: "succeeded" });
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ refundedCents: 25000, status: "partially_refunded" });
    expect(await seatsSold()).toBe(1);
    const seats = await handle.db
      .select()
      .from(tickets)
      .where(eq(tickets.orderId, orderId))
      .orderBy(asc(tickets.seatNumber));
    expect(seats.map((t) => t.voided)).toEqual([true, false]);
    const atDoor = await checkInByCode(handle.db, {
      code: seats[0]!.code,
      deviceId: "door-1",
      now: clock.now(),
      eventId: "tablecloth-workshop",
    });
    expect(atDoor.outcome).toBe("refunded");
    expect(
      (await checkInByCode(handle.db, { code: seats[1]!.code, deviceId: "door-1", now: clock.now() })).outcome,
    ).toBe("admitted");
    const [after] = await handle.db.select().from(catalogItems).where(eq(catalogItems.id, earrings!.id));
    expect(after!.stockQuantity).toBe(earrings!.stockQuantity! - 2);
    const again = await lineRefundChoices(handle.db, orderId);
    expect(again.find((c) => c.id === seatLine.id)).toMatchObject({ left: 1, amounts: [25000] });
  });

  it("a seat refunded back to sale while someone waits is offered to them by the next pass", async () => {
    const [option] = await handle.db
      .select()
      .from(ticketOptions)
      .where(eq(ticketOptions.eventId, "tablecloth-workshop"));
    // One seat is still sold from the test before: three seats, two bought here, and the session is full.
    await handle.db.update(ticketOptions).set({ capacity: 3 }).where(eq(ticketOptions.id, option!.id));
    const orderId = orderIdFrom(
      await checkout(handle, "workshop", "Transform Tablecloth into Wrap Around Skirt", {
        clock,
        fields: { ...buyer, seats: "2", attendee: "Lerato Molefe" },
      }),
    );
    const paid = await recordPayment(handle.db, {
      event: { eventId: "msg_lr_2", provider: "simulator", eventType: "payment.succeeded", payload: {} },
      orderId,
      paymentId: "p_lr_2",
      amountCents: 50000,
      now: clock.now(),
      mail,
    });
    expect(paid.outcome).toBe("paid");
    const joined = await routeAnswer(() =>
      joinRoute.action({
        request: new Request(`${SITE}/waiting-list/${option!.id}`, {
          method: "POST",
          body: new URLSearchParams({ name: "Waiting Person", email: "waiting@example.com", seats: "1" }),
        }),
        params: { optionId: String(option!.id) },
        context: context(),
      } as never),
    );
    expect(joined.status).toBe(303);
    expect(await offerFreedSeats(handle.db, clock.now(), SITE)).toBe(0);
    const [line] = await lineRefundChoices(handle.db, orderId);
    const lerato = line!.seats!.find((s) => s.name === "Lerato Molefe")!;
    const done = await requestRefund(
      context(),
      {
        orderId,
        amountCents: 0,
        restock: true,
        key: randomUUID(),
        line: { orderLineId: line!.id, units: 1, ticketIds: [lerato.id] },
      },
      provider,
    );
    expect(done).toMatchObject({ ok: true });
    expect(await offerFreedSeats(handle.db, clock.now(), SITE)).toBe(1);
    const [entry] = await handle.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.email, "waiting@example.com"));
    expect(entry).toMatchObject({ status: "offered" });
  });
});
