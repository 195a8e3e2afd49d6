import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { contactSubmissions, emailOutbox, orders } from "~/db/schema";
import { rowFromDriver } from "~/db/driver-row.server";
import { queueOrderEmail } from "~/orders/order-email-queue.server";
import { orderHistoryEntry, orderHistoryInsert } from "~/orders/order-history.server";
import { orderEvents } from "~/db/schema";
import { createTestDatabase } from "../support/test-db";

// Writes that store several rows in one statement (one trip to the database, decision 092) must read
// back as Drizzle's own queries do, on both engines; statements a transaction sends without awaiting
// each must run in order.
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});
afterAll(() => handle?.close());

const message = (n: number) => ({
  firstName: "Lerato",
  lastName: `Test ${n}`,
  email: `l${n}@example.com`,
  subject: "Hello",
  message: `Message ${n}`,
});

describe("rowFromDriver", () => {
  it("reads a raw returning * row as Drizzle's own select does (dates, numbers, nulls)", async () => {
    const id = randomUUID();
    const at = new Date("2026-11-25T10:15:30.123Z");
    const insert = handle.db
      .insert(orders)
      .values({
        id,
        reference: "HB-ONESTATE",
        orderType: "product",
        itemName: "Test Product",
        amountCents: 12_345,
        currency: "ZAR",
        status: "pending",
        customerFirstName: "A",
        customerLastName: "B",
        customerEmail: "a@example.com",
        customerPhone: "0821234567",
        customerAddress: "1 Long Street",
        provider: "simulator",
        idempotencyKey: randomUUID(),
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    const result = await handle.db.execute(sql`with created as (${insert.getSQL()}) select * from created`);
    const [raw] = (result as unknown as { rows: Record<string, unknown>[] }).rows;
    const [selected] = await handle.db.select().from(orders).where(eq(orders.id, id));
    const mapped = rowFromDriver(orders, raw!);
    expect(mapped).toEqual(selected);
    expect(mapped.createdAt).toEqual(at);
    expect(mapped.completedAt).toBeNull();
  });
});

/** A paid order with nothing else, for the writes below to be about. */
async function paidOrder(reference: string): Promise<string> {
  const id = randomUUID();
  await handle.db.insert(orders).values({
    id,
    reference,
    orderType: "product",
    itemName: "Test Product",
    amountCents: 100,
    currency: "ZAR",
    status: "paid",
    customerFirstName: "A",
    customerLastName: "B",
    customerEmail: "a@example.com",
    customerPhone: "0821234567",
    customerAddress: "x",
    provider: "simulator",
    idempotencyKey: randomUUID(),
  });
  return id;
}

describe("queueOrderEmail", () => {
  it("writes the order's history entry with the email, in one statement, dated by the shop's clock, and neither for a repeat", async () => {
    const id = await paidOrder("HB-EMAILED1");
    const email = {
      to: "a@example.com",
      subject: "Thank you",
      text: "paid",
      orderId: id,
      dedupeKey: `confirm:${id}`,
      attachments: [{ filename: "a.ics", contentType: "text/calendar", contentBase64: "QQ==" }],
    };
    const at = new Date("2026-11-25T09:30:00.000Z");
    expect(await queueOrderEmail(handle.db, email, at)).toBe(true);
    expect(await queueOrderEmail(handle.db, email, at)).toBe(false);
    const [queued] = await handle.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `confirm:${id}`));
    const events = await handle.db.select().from(orderEvents).where(eq(orderEvents.orderId, id));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: "email",
      summary: "Email queued to a@example.com: Thank you",
      detail: { outboxId: queued!.id, attachments: ["a.ics"] },
    });
    expect(events[0]!.at).toEqual(at);
  });
});

describe("orderHistoryInsert", () => {
  it("stores the lines in the order given, with their times and details, and none for a source that yields nothing", async () => {
    const id = await paidOrder("HB-HISTORY1");
    const at = new Date("2026-11-25T10:00:00.000Z");
    const kinds = ["note", "paid", "email", "attention", "webhook", "refund", "tickets", "fulfilled"] as const;
    const entries = kinds.map((kind, i) =>
      orderHistoryEntry({ orderId: id, kind, summary: `line ${i}`, at, detail: i % 2 ? { i } : undefined }),
    );
    entries.splice(
      3,
      0,
      orderHistoryEntry({
        orderId: id,
        kind: "email",
        summary: "never",
        at,
        from: sql`(select 1 where false) as nothing`,
      }),
    );
    await handle.db.execute(sql`${orderHistoryInsert(entries)}`);
    const lines = await handle.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(orderEvents.id);
    expect(lines.map((l) => l.summary)).toEqual(kinds.map((_, i) => `line ${i}`));
    expect(lines.map((l) => l.kind)).toEqual([...kinds]);
    expect(lines.every((l) => l.at.getTime() === at.getTime())).toBe(true);
    expect(lines.map((l) => l.detail)).toEqual(kinds.map((_, i) => (i % 2 ? { i } : null)));
  });
});

describe("statements started together inside a transaction", () => {
  it("run in the order they were started, each seeing the one before, and without node-postgres's queue warning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("warning", onWarning);
    try {
      const results = await handle.db.transaction(async (tx) => {
        // recordPayment's way: statements sent without awaiting each, awaited together.
        const running = [
          tx.insert(contactSubmissions).values(message(10)),
          tx.insert(contactSubmissions).values(message(11)),
          tx.execute(sql`select count(*)::int as n from contact_submissions where last_name in ('Test 10', 'Test 11')`),
        ].map((statement) => Promise.resolve(statement));
        return Promise.all(running);
      });
      const counted = (results[2] as unknown as { rows: { n: number }[] }).rows[0]!.n;
      expect(counted).toBe(2);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => /already executing a query/.test(w))).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});

describe("createPendingOrder without counted stock", () => {
  it("stores the order, its line and its first history entry in one statement, and returns the order as a select reads it", async () => {
    const { createPendingOrder } = await import("~/orders/orders.server");
    const { orderLines } = await import("~/db/schema");
    const now = new Date("2026-11-25T12:34:56.789Z");
    const order = await createPendingOrder(handle.db, {
      item: {
        orderType: "product",
        displayName: "Consultation",
        amountCents: 45_000,
        description: null,
        stock: null,
        line: {},
      },
      customer: {
        firstName: "Thandi",
        lastName: "M",
        email: "t@example.com",
        phone: "0821234567",
        address: "1 Bree Street",
      },
      provider: "simulator",
      sessionId: null,
      now,
      holdMinutes: 15,
      clientKey: null,
    });
    const [selected] = await handle.db.select().from(orders).where(eq(orders.id, order.id));
    expect(order).toEqual(selected);
    expect(order.createdAt).toEqual(now);
    expect(await handle.db.select().from(orderLines).where(eq(orderLines.orderId, order.id))).toMatchObject([
      { quantity: 1, unitPriceCents: 45_000, displayName: "Consultation" },
    ]);
    expect(await handle.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id))).toMatchObject([
      { kind: "created", summary: `Checkout started: Consultation, ${order.reference}` },
    ]);
  });
});
