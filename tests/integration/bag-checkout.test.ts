import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import {
  catalogItems,
  consentRecords,
  emailOutbox,
  orderLines,
  orders,
  stockHolds,
  subscribers,
  ticketOptions,
  tickets,
} from "~/db/schema";
import { recordPayment } from "~/orders/payment-events.server";
import { listOrdersForAdmin } from "~/orders/orders-admin.server";
import { ordersCsvLines } from "~/orders/orders-export.server";
import { readOrderQuery } from "~/orders/order-list-query";
import type { CheckoutRequest, PaymentProvider } from "~/payments/provider";
import { createSimulatorProvider } from "~/payments/simulator.server";
import { bagBrowser } from "../support/bag";
import { buyer, orderIdFrom } from "../support/checkout";
import { createTestDatabase } from "../support/test-db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

const now = new Date("2025-09-10T10:00:00+02:00");
const mail = {
  siteUrl: "http://localhost:3000",
  ownerEmail: "owner@example.test",
  secret: "test-secret-test-secret-test-secret",
};

async function item(slug: string) {
  const [row] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, slug));
  return row!;
}

async function workshopOption() {
  const [row] = await handle.db.select().from(ticketOptions).where(eq(ticketOptions.eventId, "tablecloth-workshop"));
  return row!;
}

/** The simulator, keeping each checkout it was asked for. */
function recordingProvider() {
  const asked: CheckoutRequest[] = [];
  const simulator = createSimulatorProvider();
  const provider: PaymentProvider = {
    ...simulator,
    async createCheckout(request) {
      asked.push(request);
      return simulator.createCheckout(request);
    },
  };
  return { provider, asked };
}

let ips = 0;
const nextIp = () => `10.9.0.${++ips}`;

async function workshopSeatsHeldOrSold() {
  const option = await workshopOption();
  const rows = await handle.db
    .select()
    .from(stockHolds)
    .where(like(stockHolds.stockKey, `ticket:${option.id}:%`));
  return rows.filter((r) => r.status !== "released").reduce((n, r) => n + r.quantity, 0);
}

describe(`checkout of a bag (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("one order with its lines, one provider checkout listing them, and on payment the stock and seats drop", async () => {
    const earrings = await item("candy-earrings");
    const option = await workshopOption();
    const browser = bagBrowser(handle, { clientIp: nextIp() });
    await browser.post({ intent: "add", kind: "catalog", id: String(earrings.id), quantity: "2" });
    await browser.post({ intent: "add", kind: "ticket", id: String(option.id), quantity: "2" });

    const { provider, asked } = recordingProvider();
    const result = await browser.checkout(provider);
    const orderId = orderIdFrom(result);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.amountCents).toBe(2 * 35000 + 2 * 25000);
    expect(asked[0]!.lineItems).toEqual([
      { displayName: "Candy Earrings", quantity: 2, unitPriceCents: 35000 },
      { displayName: "Transform Tablecloth into Wrap Around Skirt", quantity: 2, unitPriceCents: 25000 },
    ]);
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({
      orderType: "product",
      amountCents: 120000,
      itemName: "Candy Earrings × 2, Transform Tablecloth into Wrap Around Skirt × 2",
      // The dashboard's bag funnel counts it once paid.
      fromBag: true,
    });
    const lines = await handle.db.select().from(orderLines).where(eq(orderLines.orderId, orderId));
    expect(lines.map((l) => [l.displayName, l.quantity, l.unitPriceCents])).toEqual([
      ["Candy Earrings", 2, 35000],
      ["Transform Tablecloth into Wrap Around Skirt", 2, 25000],
    ]);
    // Until it is paid the bag keeps its lines (a failed payment is tried again from it).
    expect((await browser.view()).body.lines).toHaveLength(2);

    const paid = await recordPayment(handle.db, {
      event: { eventId: "msg_bag_1", provider: "simulator", eventType: "payment.succeeded", payload: {} },
      orderId,
      paymentId: "p_bag_1",
      amountCents: 120000,
      now,
      mail,
    });
    expect(paid.outcome).toBe("paid");
    expect((await item("candy-earrings")).stockQuantity).toBe(earrings.stockQuantity! - 2);
    expect(await workshopSeatsHeldOrSold()).toBe(2);
    const issued = await handle.db.select().from(tickets).where(eq(tickets.orderId, orderId));
    expect(issued).toHaveLength(2);
    expect(new Set(issued.map((t) => t.code)).size).toBe(2);
    expect(issued.every((t) => t.holderName === "Thandi Mokoena")).toBe(true);
    const emails = await handle.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.toAddress, "thandi@example.com")));
    expect(emails).toHaveLength(1);
    expect(emails[0]!.textBody).toContain("Candy Earrings × 2, Transform Tablecloth into Wrap Around Skirt × 2");
    expect(emails[0]!.attachments?.filter((a) => a.contentType === "image/png")).toHaveLength(2);

    // The paid bag is empty, and its count cookie says so.
    expect((await browser.view()).body.lines).toEqual([]);
    expect(browser.jar.get("hb_bag_n")).toBe("0");

    // The owner's list names the order by its units and first line; the CSV has a row per line, the
    // order's amount on the first only.
    const listed = await listOrdersForAdmin(handle.db, readOrderQuery(new URLSearchParams({ q: order!.reference })));
    expect(listed.orders.map((o) => o.itemName)).toEqual(["4 items: Candy Earrings"]);
    const csv: string[] = [];
    for await (const row of ordersCsvLines(handle.db, readOrderQuery(new URLSearchParams({ q: order!.reference }))))
      csv.push(row);
    expect(csv).toHaveLength(3);
    expect(csv[0]).toMatch(/,Quantity,Unit price \(ZAR\),Line fulfilment\r?\n?$/);
    expect(csv[1]).toContain(",Candy Earrings,product,1200.00,0.00,paid,");
    expect(csv[1]).toMatch(/,2,350\.00,unfulfilled\r?\n?$/);
    expect(csv[2]).toContain(",Transform Tablecloth into Wrap Around Skirt,product,,,paid,");
    expect(csv[2]).toMatch(/,2,250\.00,\r?\n?$/);
  });

  it("two bags after the last unit, with other lines, at once: one gets it, the other is refused by name, holding nothing", async () => {
    const earrings = await item("candy-earrings");
    await handle.db.update(catalogItems).set({ stockQuantity: 1 }).where(eq(catalogItems.id, earrings.id));
    const option = await workshopOption();
    const hats = await item("bucket-hats");
    await handle.db.update(catalogItems).set({ stockQuantity: 5 }).where(eq(catalogItems.id, hats.id));
    const first = bagBrowser(handle, { clientIp: nextIp() });
    const second = bagBrowser(handle, { clientIp: nextIp() });
    // Lines in different orders, so their keys would be taken the other way round without a common order.
    await first.post({ intent: "add", kind: "ticket", id: String(option.id), quantity: "1" });
    await first.post({ intent: "add", kind: "catalog", id: String(earrings.id), quantity: "1" });
    await second.post({ intent: "add", kind: "catalog", id: String(earrings.id), quantity: "1" });
    await second.post({ intent: "add", kind: "catalog", id: String(hats.id), quantity: "2" });
    await second.post({ intent: "add", kind: "ticket", id: String(option.id), quantity: "1" });
    const seatsBefore = await workshopSeatsHeldOrSold();

    const results = await Promise.all([first.checkout(), second.checkout()]);
    const won = results.filter((r) => r instanceof Response);
    const lost = results.filter((r) => !(r instanceof Response));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    // Refused by the hold, or (when the other finished first) by the bag's own check: the same words.
    expect(lost[0]).toMatchObject({
      toast: { title: "Checkout Error", description: "Candy Earrings is sold out. Please change your bag first." },
    });
    // Only the winner's order and holds exist: one earring unit and one seat more.
    const held = await handle.db
      .select()
      .from(stockHolds)
      .where(and(eq(stockHolds.stockKey, `catalog:${earrings.id}`), eq(stockHolds.status, "held")));
    expect(held.reduce((n, h) => n + h.quantity, 0)).toBe(1);
    const hatHolds = await handle.db
      .select()
      .from(stockHolds)
      .where(eq(stockHolds.stockKey, `catalog:${hats.id}`));
    const winnerIsSecond = won[0] === results[1];
    expect(hatHolds.reduce((n, h) => n + h.quantity, 0)).toBe(winnerIsSecond ? 2 : 0);
    expect(await workshopSeatsHeldOrSold()).toBe(seatsBefore + 1);
    // The refused buyer keeps the bag, with the line marked.
    const loser = winnerIsSecond ? first : second;
    const view = await loser.view();
    expect(view.body.lines.find((l: { name: string }) => l.name === "Candy Earrings").problem).toBe(
      "Candy Earrings is sold out.",
    );
    await handle.db.update(catalogItems).set({ stockQuantity: 10 }).where(eq(catalogItems.id, earrings.id));
  });

  it("names a line of which fewer are left than the bag asks, and keeps the bag", async () => {
    const earrings = await item("candy-earrings");
    const browser = bagBrowser(handle, { clientIp: nextIp() });
    await browser.post({ intent: "add", kind: "catalog", id: String(earrings.id), quantity: "3" });
    // Someone else holds all but two meanwhile.
    const other = bagBrowser(handle, { clientIp: nextIp() });
    // One unit is still held by the race's winner.
    await handle.db.update(catalogItems).set({ stockQuantity: 6 }).where(eq(catalogItems.id, earrings.id));
    await other.post({ intent: "add", kind: "catalog", id: String(earrings.id), quantity: "3" });
    orderIdFrom(await other.checkout());
    const refused = await browser.checkout();
    expect(refused).toMatchObject({
      toast: { description: "Candy Earrings: Only 2 left. Please change your bag first." },
    });
    expect((await browser.view()).body.lines[0]).toMatchObject({ quantity: 3, choices: [1, 2] });
    await handle.db.update(catalogItems).set({ stockQuantity: 10 }).where(eq(catalogItems.id, earrings.id));
  });

  it("counts the unpaid budget across the bag, and refuses an empty bag", async () => {
    const earrings = await item("candy-earrings");
    const option = await workshopOption();
    const browser = bagBrowser(handle, { clientIp: nextIp() });
    expect(await browser.checkout()).toMatchObject({
      toast: { description: "Your bag is empty. Add something from the shop or an event first." },
    });
    const added = await browser.post({ intent: "add", kind: "catalog", id: String(earrings.id), quantity: "4" });
    expect(added.status).toBe(302);
    expect(await browser.checkout()).toMatchObject({
      toast: {
        description: "Candy Earrings: one checkout can buy at most 3. Please lower the quantity in your bag.",
      },
    });
    const line = (await browser.view()).body.lines[0];
    await browser.post({ intent: "set", line: String(line.id), quantity: "3" });
    await browser.post({ intent: "add", kind: "ticket", id: String(option.id), quantity: "3" });
    expect(await browser.checkout()).toMatchObject({
      toast: { description: "One checkout can buy at most 5 items. Please lower the quantities in your bag." },
    });
    // Units already waiting for payment from this client count too.
    const seatLine = (await browser.view()).body.lines[1];
    await browser.post({ intent: "set", line: String(seatLine.id), quantity: "2" });
    orderIdFrom(await browser.checkout());
    const again = await browser.checkout();
    expect(again).toMatchObject({ toast: { title: "Checkout Error" } });
    expect((again as { toast: { description: string } }).toast.description).toMatch(/waiting for payment from you/);
  });

  it("keeps the ticked news box: the buyer is asked to confirm by email, as from the footer; a forged value is refused", async () => {
    const earrings = await item("candy-earrings");
    const browser = bagBrowser(handle, { clientIp: nextIp() });
    await browser.post({ intent: "add", kind: "catalog", id: String(earrings.id), quantity: "1" });
    const newcomer = { ...buyer, email: "bag.news@example.test" };
    expect(await browser.checkout(undefined, { ...newcomer, news: "yes please" })).toMatchObject({
      toast: { description: "Please tick the box, or leave it empty." },
    });
    expect(await handle.db.select().from(subscribers).where(eq(subscribers.email, newcomer.email))).toEqual([]);
    orderIdFrom(await browser.checkout(undefined, { ...newcomer, news: "on" }));
    const [subscriber] = await handle.db.select().from(subscribers).where(eq(subscribers.email, newcomer.email));
    expect(subscriber).toMatchObject({ status: "pending" });
    const [asked] = await handle.db
      .select()
      .from(consentRecords)
      .where(eq(consentRecords.subscriberId, subscriber!.id));
    expect(asked).toMatchObject({ action: "asked", form: "checkout", page: "/checkout?bag=1" });
  });
});
