import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, catalogItems, emailOutbox, orderEvents, orderLines, orders, ticketOptions } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { fulfilmentWaits, fulfilmentWords } from "~/orders/fulfilment-words";
import { markLines } from "~/orders/line-fulfilment.server";
import { listOrdersForAdmin } from "~/orders/orders-admin.server";
import { ordersCsvLines } from "~/orders/orders-export.server";
import { orderContents } from "~/orders/order-contents.server";
import { findOrder } from "~/orders/orders.server";
import { requestRefund } from "~/orders/refunds.server";
import { createSimulatorProvider } from "~/payments/simulator.server";
import { createMemberSession } from "~/memberships/member-session.server";
import * as accountRoute from "~/routes/account";
import * as orderRoute from "~/routes/admin/order";
import { cookiePair, get, memberWithPayment } from "../support/account";
import { routeAnswer } from "../support/route-answer";
import { createTestDatabase, testContext } from "../support/test-db";

/**
 * Per-line fulfilment (issue 39, decision 137): a bag's product lines are posted or handed over each on
 * its own, through the order page's real action; the summary the owner's list, the filter and the
 * buyer's page read is derived from the lines, and a line refunded away does not wait.
 */
const SITE = "http://localhost:3000";
const START = new Date("2026-11-20T10:00:00+02:00");
const engine = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";

let handle: DatabaseHandle;
const clock = fixedClock(START);
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

const context = () => testContext(handle, { clock, config: { siteUrl: SITE } });
const provider = createSimulatorProvider();
let n = 0;

async function itemId(slug: string) {
  const [item] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, slug));
  return item!.id;
}

type LineShape = { name: string; slug?: string; ticket?: boolean; quantity?: number };

/** A bag's paid order straight in the tables: its lines, charged their list prices. */
async function bagOrder(shape: LineShape[], status: "paid" | "pending" = "paid", email?: string) {
  const id = randomUUID();
  const [option] = await handle.db.select().from(ticketOptions).limit(1);
  const values = await Promise.all(
    shape.map(async (l) => ({
      orderId: id,
      displayName: l.name,
      quantity: l.quantity ?? 1,
      unitPriceCents: 10_000,
      catalogItemId: l.slug ? await itemId(l.slug) : null,
      ticketOptionId: l.ticket ? option!.id : null,
    })),
  );
  await handle.db.insert(orders).values({
    id,
    reference: `HB-LF${String(++n).padStart(4, "0")}`,
    orderType: "product",
    itemName: shape.map((l) => l.name).join(", "),
    amountCents: values.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0),
    currency: "ZAR",
    status,
    customerFirstName: "Nomvula",
    customerLastName: "Dlamini-Van der Merwe",
    customerEmail: email ?? `nomvula${n}@example.com`,
    customerPhone: "+27 82 555 0101",
    customerAddress: "12 Jacaranda Street",
    provider: "simulator",
    yocoCheckoutId: `ch_lf_${n}`,
    idempotencyKey: randomUUID(),
    completedAt: status === "paid" ? START : null,
    createdAt: START,
    updatedAt: START,
  });
  const lines = await handle.db.insert(orderLines).values(values).returning();
  return { id, lines };
}

async function orderAction(id: string, fields: [string, string][]) {
  const request = new Request(`${SITE}/admin/orders/${id}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: SITE },
  });
  const answer = await routeAnswer(() => orderRoute.action({ request, params: { id }, context: context() } as never));
  return { status: answer.status, error: (answer.body as { error?: string } | null)?.error ?? null };
}

const mark = (id: string, lineIds: number[], method = "posted") =>
  orderAction(id, [
    ["intent", "fulfil-lines"],
    ["method", method],
    ...lineIds.map((l): [string, string] => ["line", String(l)]),
  ]);

const linesOf = (id: string) =>
  handle.db.select().from(orderLines).where(eq(orderLines.orderId, id)).orderBy(asc(orderLines.id));
const emailsOf = (id: string) =>
  handle.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.orderId, id), like(emailOutbox.dedupeKey, "order-fulfilled:%")))
    .orderBy(asc(emailOutbox.id));

const QUERY = { q: "", status: "", type: "", from: "", to: "", event: "", page: 1 };

/** The owner's list row of one order: its words, whether they are bold, and whether "To post" finds it. */
async function listed(id: string) {
  const [order] = await handle.db.select().from(orders).where(eq(orders.id, id));
  const all = await listOrdersForAdmin(handle.db, { ...QUERY, q: order!.reference });
  const toPost = await listOrdersForAdmin(handle.db, { ...QUERY, q: order!.reference, status: "to-post" });
  const row = all.orders[0]!;
  return { words: fulfilmentWords(row), waits: fulfilmentWaits(row), toPost: toPost.orders.length === 1 };
}

describe(`per-line fulfilment (${engine})`, () => {
  it("one line posted, the others still wait; then the rest in one press: one email per marking naming its lines", async () => {
    const order = await bagOrder([
      { name: "Candy Earrings", slug: "candy-earrings", quantity: 2 },
      { name: "Crochet Earrings in Sunset Orange and Deep Ocean Blue", slug: "crochet-earrings" },
      { name: "Beaded Jewellery", slug: "beaded-jewellery" },
      { name: "Tablecloth workshop seat", ticket: true },
    ]);
    const [earrings, crochet, beaded, seat] = order.lines;
    expect(await listed(order.id)).toEqual({ words: "Unfulfilled", waits: true, toPost: true });

    expect(await mark(order.id, [earrings!.id])).toMatchObject({ status: 302 });
    const after = await linesOf(order.id);
    expect(after.map((l) => l.fulfilmentStatus)).toEqual(["fulfilled", "unfulfilled", "unfulfilled", "unfulfilled"]);
    expect(after[0]).toMatchObject({ fulfilmentMethod: "posted", fulfilledAt: START });
    expect((await findOrder(handle.db, order.id))!.fulfilmentStatus).toBe("unfulfilled");
    expect(await listed(order.id)).toEqual({ words: "1 of 3 items sent", waits: true, toPost: true });
    const [first] = await emailsOf(order.id);
    expect(first!.textBody).toContain("Candy Earrings × 2");
    expect(first!.textBody).not.toContain("Beaded Jewellery");

    // Pressed again (a double click): nothing more is marked or sent.
    expect(await mark(order.id, [earrings!.id])).toMatchObject({ status: 302 });
    expect(await emailsOf(order.id)).toHaveLength(1);

    // "All remaining" (every waiting line ticked), handed over: the order reads fulfilled; the seat never waited.
    expect(await mark(order.id, [crochet!.id, beaded!.id], "collected")).toMatchObject({ status: 302 });
    const done = await linesOf(order.id);
    expect(done.map((l) => [l.fulfilmentStatus, l.fulfilmentMethod])).toEqual([
      ["fulfilled", "posted"],
      ["fulfilled", "collected"],
      ["fulfilled", "collected"],
      ["unfulfilled", null],
    ]);
    expect(await findOrder(handle.db, order.id)).toMatchObject({ fulfilmentStatus: "fulfilled" });
    expect(await listed(order.id)).toEqual({ words: "Fulfilled", waits: false, toPost: false });
    const emails = await emailsOf(order.id);
    expect(emails).toHaveLength(2);
    expect(emails[1]!.textBody).toContain("Crochet Earrings in Sunset Orange");
    expect(emails[1]!.textBody).toContain("Beaded Jewellery");
    expect(emails[1]!.textBody).not.toContain("Candy Earrings");

    const history = await handle.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.kind, "fulfilled")));
    expect(history.map((h) => h.summary)).toEqual([
      "Marked posted: Candy Earrings × 2",
      "Marked collected: Crochet Earrings in Sunset Orange and Deep Ocean Blue, Beaded Jewellery",
    ]);
    const audit = await handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.entityId, order.id));
    expect(audit.map((a) => a.action)).toEqual(["order.fulfil", "order.fulfil"]);

    // The seat is not a line to mark, and nothing is left to mark.
    expect(await mark(order.id, [seat!.id])).toMatchObject({ status: 400, error: "Choose the items to mark." });
    expect(await mark(order.id, [beaded!.id])).toMatchObject({ status: 302 });
    expect(await emailsOf(order.id)).toHaveLength(2);

    const buyer = await orderContents(context(), (await findOrder(handle.db, order.id))!);
    expect(buyer.fulfilment).toBe("Fulfilled");

    // The CSV's row per line says how each line went; the seat's cell is empty.
    const csv: string[] = [];
    for await (const row of ordersCsvLines(handle.db, {
      ...QUERY,
      q: (await findOrder(handle.db, order.id))!.reference,
    }))
      csv.push(row.trim());
    expect(csv[0]!.endsWith(",Line fulfilment")).toBe(true);
    expect(csv.slice(1).map((row) => row.split(",").at(-1))).toEqual(["posted", "collected", "collected", ""]);
  });

  it("a line refunded away no longer waits: the last one sent makes the order fulfilled", async () => {
    const order = await bagOrder([
      { name: "Candy Earrings", slug: "candy-earrings" },
      { name: "Crochet Earrings", slug: "crochet-earrings", quantity: 2 },
      { name: "Beaded Jewellery", slug: "beaded-jewellery" },
    ]);
    const [earrings, crochet, beaded] = order.lines;
    const refund = (line: number, units: number) =>
      requestRefund(
        context(),
        {
          orderId: order.id,
          amountCents: 0,
          restock: false,
          key: randomUUID(),
          line: { orderLineId: line, units, ticketIds: [] },
        },
        provider,
      );
    // One unit of two refunded: the line still has one to send.
    expect(await refund(crochet!.id, 1)).toMatchObject({ ok: true });
    expect(await listed(order.id)).toEqual({ words: "Unfulfilled", waits: true, toPost: true });
    expect(await refund(beaded!.id, 1)).toMatchObject({ ok: true });
    expect(await listed(order.id)).toEqual({ words: "Unfulfilled", waits: true, toPost: true });

    expect(await markLines(context(), order.id, { lineIds: [earrings!.id], method: "posted" })).toBe("fulfilled");
    expect(await listed(order.id)).toEqual({ words: "1 of 2 items sent", waits: true, toPost: true });
    // The refunded line cannot be marked; the rest goes in one press and the order is done.
    expect(await markLines(context(), order.id, { lineIds: [beaded!.id], method: "posted" })).toBe("already");
    expect(await markLines(context(), order.id, { lineIds: "all", method: "posted" })).toBe("fulfilled");
    expect((await linesOf(order.id)).map((l) => l.fulfilmentStatus)).toEqual(["fulfilled", "fulfilled", "unfulfilled"]);
    expect(await findOrder(handle.db, order.id)).toMatchObject({
      status: "partially_refunded",
      fulfilmentStatus: "fulfilled",
    });
    expect(await listed(order.id)).toEqual({ words: "Fulfilled", waits: false, toPost: false });

    // The other way round: the one line still waiting is refunded away, and the order waits no more.
    const second = await bagOrder([
      { name: "Candy Earrings", slug: "candy-earrings" },
      { name: "Crochet Earrings", slug: "crochet-earrings" },
    ]);
    await markLines(context(), second.id, { lineIds: [second.lines[0]!.id], method: "collected" });
    expect(await listed(second.id)).toEqual({ words: "1 of 2 items sent", waits: true, toPost: true });
    expect(
      await requestRefund(
        context(),
        {
          orderId: second.id,
          amountCents: 0,
          restock: true,
          key: randomUUID(),
          line: { orderLineId: second.lines[1]!.id, units: 1, ticketIds: [] },
        },
        provider,
      ),
    ).toMatchObject({ ok: true });
    expect(await listed(second.id)).toMatchObject({ waits: false, toPost: false });
    expect((await listed(second.id)).words).toBe("Handed over");
  });

  it("a service line is marked done; an unpaid order and bad input are refused and change nothing", async () => {
    const mixed = await bagOrder([
      { name: "Candy Earrings", slug: "candy-earrings" },
      { name: "Fashion Consultation", slug: "fashion-consultation" },
    ]);
    expect(
      await mark(
        mixed.id,
        mixed.lines.map((l) => l.id),
      ),
    ).toMatchObject({ status: 302 });
    expect((await linesOf(mixed.id)).map((l) => l.fulfilmentMethod)).toEqual(["posted", "service done"]);

    const pending = await bagOrder(
      [
        { name: "Candy Earrings", slug: "candy-earrings" },
        { name: "Crochet Earrings", slug: "crochet-earrings" },
      ],
      "pending",
    );
    const ids = pending.lines.map((l) => l.id);
    expect(await mark(pending.id, ids)).toMatchObject({
      status: 409,
      error: "Only a paid order can be marked fulfilled.",
    });
    const paid = await bagOrder([
      { name: "Candy Earrings", slug: "candy-earrings" },
      { name: "Crochet Earrings", slug: "crochet-earrings" },
    ]);
    const paidIds = paid.lines.map((l) => l.id);
    expect(await mark(paid.id, paidIds, "teleported")).toMatchObject({ status: 400 });
    expect(await mark(paid.id, paidIds, "service done")).toMatchObject({
      status: 400,
      error: "Choose whether they were posted or handed over.",
    });
    expect(await mark(paid.id, [])).toMatchObject({ status: 400, error: "Choose the items to mark." });
    expect(await mark(paid.id, ["abc" as unknown as number])).toMatchObject({ status: 400 });
    // Another order's line is not this order's to mark.
    expect(await mark(paid.id, [mixed.lines[0]!.id])).toMatchObject({ status: 400 });
    const untouched = await handle.db
      .select()
      .from(orderLines)
      .where(inArray(orderLines.orderId, [pending.id, paid.id]));
    expect(untouched.every((l) => l.fulfilmentStatus === "unfulfilled")).toBe(true);
    expect(await emailsOf(pending.id)).toHaveLength(0);
    expect(await emailsOf(paid.id)).toHaveLength(0);
  });

  it("an order of one line is marked with one press, as before: the order's email and history words", async () => {
    const single = await bagOrder([{ name: "Candy Earrings", slug: "candy-earrings" }]);
    expect(
      await orderAction(single.id, [
        ["intent", "fulfil"],
        ["method", "posted"],
      ]),
    ).toMatchObject({ status: 302 });
    expect((await linesOf(single.id))[0]).toMatchObject({ fulfilmentStatus: "fulfilled", fulfilmentMethod: "posted" });
    expect(await findOrder(handle.db, single.id)).toMatchObject({
      fulfilmentStatus: "fulfilled",
      fulfilmentMethod: "posted",
    });
    const [email] = await emailsOf(single.id);
    expect(email!.dedupeKey).toBe(`order-fulfilled:${single.id}`);
    const history = await handle.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, single.id), eq(orderEvents.kind, "fulfilled")));
    expect(history.map((h) => h.summary)).toEqual(["Marked fulfilled: posted"]);
    expect(await listed(single.id)).toEqual({ words: "Posted", waits: false, toPost: false });
  });

  it("a member's /account lists her shop orders with the summary: 1 of 2 items sent", async () => {
    const email = "Zanele.Account@Example.com";
    const { member } = await memberWithPayment(handle, { email, name: "Zanele Mthembu", reference: "HB-LFMEMBER" });
    const order = await bagOrder(
      [
        { name: "Candy Earrings", slug: "candy-earrings" },
        { name: "Beaded Jewellery", slug: "beaded-jewellery" },
      ],
      "paid",
      email.toLowerCase(),
    );
    await markLines(context(), order.id, { lineIds: [order.lines[0]!.id], method: "posted" });
    const cookie = cookiePair(await createMemberSession(handle.db, context(), member.id));
    const page = await get(accountRoute.loader, context(), "/account", cookie);
    expect(page.body.shopOrders).toEqual([
      expect.objectContaining({ itemName: "Candy Earrings, Beaded Jewellery", fulfilment: "1 of 2 items sent" }),
    ]);
  });
});
