import { asc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { catalogItems, emailOutbox, orderLines, orders, ticketOptions, tickets, waitlistEntries } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { recordPayment } from "~/orders/payment-events.server";
import { createSimulatorProvider } from "~/payments/simulator.server";
import { ERASERS, identifiersOf } from "~/privacy/erasers.server";
import { readPersonalRecords } from "~/privacy/personal-records.server";
import * as checkoutRoute from "~/routes/checkout";
import * as joinRoute from "~/routes/waiting-list";
import * as offerRoute from "~/routes/waiting-list-offer";
import { returnUnits } from "~/stock/hold-sales.server";
import { doorTicketList, listAttendees } from "~/tickets/door-lists.server";
import { offerFreedSeats } from "~/waitlist/offers.server";
import { bagBrowser } from "../support/bag";
import { buyer, checkout, checkoutRequest, orderIdFrom } from "../support/checkout";
import { routeAnswer } from "../support/route-answer";
import { createTestDatabase, testContext } from "../support/test-db";

const WORKSHOP = "Transform Tablecloth into Wrap Around Skirt";
const SITE = "http://localhost:3000";
const START = new Date("2025-09-10T10:00:00+02:00");
const mail = { siteUrl: SITE, ownerEmail: "owner@example.test", secret: "test-secret-test-secret-test-secret" };
const engine = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";

let handle: DatabaseHandle;
let clock: ReturnType<typeof fixedClock>;
let optionId: number;
let payments = 0;
let ips = 0;

beforeEach(async () => {
  handle = await createTestDatabase();
  clock = fixedClock(START);
  const [option] = await handle.db.select().from(ticketOptions).where(eq(ticketOptions.eventId, "tablecloth-workshop"));
  optionId = option!.id;
});
afterEach(() => handle?.close());

const context = () => testContext(handle, { clock, config: { siteUrl: SITE }, clientIp: `10.7.0.${++ips}` });
const call = (fn: (args: never) => unknown, request: Request, params: Record<string, string> = {}) =>
  routeAnswer(() => fn({ request, params, context: context() } as never));
const form = (fields: [string, string][]) => new URLSearchParams(fields);
const customer = Object.entries(buyer) as [string, string][];

async function pay(orderId: string) {
  const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
  const n = payments++;
  const paid = await recordPayment(handle.db, {
    event: { eventId: `msg_att_${n}`, provider: "simulator", eventType: "payment.succeeded", payload: {} },
    orderId,
    paymentId: `p_att_${n}`,
    amountCents: order!.amountCents,
    now: clock.now(),
    mail,
  });
  expect(paid.outcome).toBe("paid");
}

const holders = (orderId: string) =>
  handle.db
    .select({ seat: tickets.seatNumber, name: tickets.holderName })
    .from(tickets)
    .where(eq(tickets.orderId, orderId))
    .orderBy(asc(tickets.seatNumber));

async function bagWithEarringsAndTwoSeats() {
  const [earrings] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "candy-earrings"));
  const browser = bagBrowser(handle, { clock, clientIp: `10.8.0.${++ips}` });
  await browser.post({ intent: "add", kind: "catalog", id: String(earrings!.id), quantity: "2" });
  await browser.post({ intent: "add", kind: "ticket", id: String(optionId), quantity: "2" });
  return browser;
}

describe(`attendee names per seat (${engine})`, () => {
  it("a bag's seats each get their holder's name (an empty one the buyer's): tickets, door, attendees, email", async () => {
    const browser = await bagWithEarringsAndTwoSeats();
    const page = await call(
      checkoutRoute.loader,
      new Request(`${SITE}/checkout?bag=1`, {
        headers: { cookie: browser.cookieHeader() },
      }),
    );
    expect(page.body.offer.seatGroups).toEqual([{ name: WORKSHOP, seats: 2 }]);

    const result = await browser.checkout(createSimulatorProvider(), [
      ...customer,
      ["attendee", "  Naledi Dlamini "],
      ["attendee", ""],
    ]);
    const orderId = orderIdFrom(result);
    const lines = await handle.db
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, orderId))
      .orderBy(asc(orderLines.id));
    expect(lines.map((l) => l.attendeeNames)).toEqual([null, ["Naledi Dlamini", "Thandi Mokoena"]]);
    await pay(orderId);

    expect(await holders(orderId)).toEqual([
      { seat: 1, name: "Naledi Dlamini" },
      { seat: 2, name: "Thandi Mokoena" },
    ]);
    const door = await doorTicketList(handle.db, "tablecloth-workshop", clock.now());
    expect(door.tickets.map((t) => t.name).sort()).toEqual(["Naledi Dlamini", "Thandi Mokoena"]);
    const attendees = await listAttendees(handle.db, "tablecloth-workshop", "Naledi");
    expect(JSON.stringify(attendees)).toContain("Naledi Dlamini");
    const [email] = await handle.db.select().from(emailOutbox).where(eq(emailOutbox.orderId, orderId));
    expect(email!.textBody).toContain("Naledi Dlamini");
    expect(email!.textBody).toContain("Thandi Mokoena");
  });

  it("a bad name is refused with a message for its field, nothing is stored, and every name typed comes back", async () => {
    const browser = await bagWithEarringsAndTwoSeats();
    const refused = await browser.checkout(createSimulatorProvider(), [
      ...customer,
      ["attendee", "Naledi Dlamini"],
      ["attendee", "Bad\u0007Name"],
    ]);
    expect(refused).toMatchObject({
      ok: false,
      toast: { description: `Seat 2 of 2: ${WORKSHOP}: A name cannot contain line breaks or control characters.` },
      attendees: ["Naledi Dlamini", "Bad\u0007Name"],
      attendeeErrors: [null, "A name cannot contain line breaks or control characters."],
    });
    const tooLong = await browser.checkout(createSimulatorProvider(), [...customer, ["attendee", "x".repeat(101)]]);
    expect(tooLong).toMatchObject({ ok: false, attendeeErrors: ["A name must be at most 100 characters.", null] });
    expect(await handle.db.select().from(orders)).toHaveLength(0);
  });

  it("the one-item checkout names its seats, and a refused hold shows the page again with the names", async () => {
    const result = await checkout(handle, "workshop", WORKSHOP, {
      clock,
      fields: { ...buyer, seats: "2", attendee: "Naledi Dlamini" },
    });
    const orderId = orderIdFrom(result);
    await pay(orderId);
    expect((await holders(orderId)).map((h) => h.name)).toEqual(["Naledi Dlamini", "Thandi Mokoena"]);

    // One seat left, two asked for: the hold is refused and the page comes back with what was typed.
    await handle.db.update(ticketOptions).set({ capacity: 3 }).where(eq(ticketOptions.id, optionId));
    const request = checkoutRequest("workshop", WORKSHOP, {});
    const body = form([
      ...customer,
      ["type", "workshop"],
      ["item", WORKSHOP],
      ["seats", "2"],
      ["attendee", "Lerato"],
      ["attendee", "Zanele"],
      ["attendee", "Ignored"],
    ]);
    const refused = await call(checkoutRoute.action, new Request(request.url, { method: "POST", body }));
    expect(refused.status).toBe(400);
    expect(refused.body.toast.description).toMatch(/only 1|full|sold out/i);
    expect(refused.body.attendees).toEqual(["Lerato", "Zanele", "Ignored"]);
    expect(refused.body.seats).toBe("2");
    expect(refused.body.values.firstName).toBe("Thandi");

    // A missing customer field keeps the names too.
    const missing = await call(
      checkoutRoute.action,
      new Request(request.url, {
        method: "POST",
        body: form([
          ["type", "workshop"],
          ["item", WORKSHOP],
          ["attendee", "Lerato"],
        ]),
      }),
    );
    expect(missing.body.attendees).toEqual(["Lerato"]);
  });

  it("the waiting-list offer's checkout names the seats held for it", async () => {
    await handle.db.update(ticketOptions).set({ capacity: 2 }).where(eq(ticketOptions.id, optionId));
    const first = await checkout(handle, "workshop", WORKSHOP, { clock, fields: { ...buyer, seats: "2" } });
    const firstId = orderIdFrom(first);
    await pay(firstId);
    const joined = await call(
      joinRoute.action,
      new Request(`${SITE}/waiting-list/${optionId}`, {
        method: "POST",
        body: new URLSearchParams({ name: "Third Person", email: "third@example.com", seats: "2" }),
      }),
      { optionId: String(optionId) },
    );
    expect(joined.status).toBe(303);
    await handle.db.transaction((tx) => returnUnits(tx, firstId, clock.now()));
    expect(await offerFreedSeats(handle.db, clock.now(), SITE)).toBe(1);
    const [entry] = await handle.db.select().from(waitlistEntries);
    const token = entry!.offerToken!;
    const url = `${SITE}/waiting-list/offer/${token}`;

    const bad = await call(
      offerRoute.action,
      new Request(url, {
        method: "POST",
        body: form([...customer, ["attendee", "x".repeat(101)], ["attendee", "Sam"]]),
      }),
      { token },
    );
    expect(bad.body).toMatchObject({
      attendees: ["x".repeat(101), "Sam"],
      attendeeErrors: ["A name must be at most 100 characters.", null],
    });
    const bought = await call(
      offerRoute.action,
      new Request(url, { method: "POST", body: form([...customer, ["attendee", "Sam Third"], ["attendee", ""]]) }),
      { token },
    );
    const orderId = /\/payments\/simulator\/([0-9a-f-]{36})/.exec(bought.location ?? "")![1]!;
    await pay(orderId);
    expect((await holders(orderId)).map((h) => h.name)).toEqual(["Sam Third", "Thandi Mokoena"]);
  });

  it("the names are in the buyer's data export and are erased with her orders", async () => {
    const browser = await bagWithEarringsAndTwoSeats();
    const orderId = orderIdFrom(
      await browser.checkout(createSimulatorProvider(), [
        ...customer,
        ["attendee", "Naledi Dlamini"],
        ["attendee", "Zanele Khumalo"],
      ]),
    );
    const who = { email: buyer.email, memberId: null };
    const records = await readPersonalRecords(handle.db, who, clock.now());
    expect(JSON.stringify(records)).toContain(`${WORKSHOP}: Naledi Dlamini, Zanele Khumalo`);

    await handle.db.transaction(async (tx) => {
      const identifiers = await identifiersOf(tx, who, [orderId]);
      expect(identifiers).toContain("Zanele Khumalo");
      const scope = {
        who,
        reference: "ERASED-1",
        placeholderEmail: "erased-1@invalid",
        orderIds: [orderId],
        identifiers,
      };
      for (const erase of ERASERS) await erase(tx, scope, clock.now());
    });
    const lines = await handle.db.select().from(orderLines).where(eq(orderLines.orderId, orderId));
    expect(lines.every((l) => l.attendeeNames === null)).toBe(true);
    expect(lines.map((l) => l.quantity)).toEqual([2, 2]);
  });
});
