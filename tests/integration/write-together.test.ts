import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { contactSubmissions, emailOutbox, orders } from "~/db/schema";
import { rowFromDriver, writeTogether } from "~/db/write-together.server";
import { emailInsert, queueEmail } from "~/email/outbox.server";
import { orderEvents } from "~/db/schema";
import { createTestDatabase } from "../setup/test-db";

// writeTogether runs independent writes as one transaction: on PGlite's worker in one message (no
// round trip to the main thread between them, decision 092), on PostgreSQL on one pooled connection.
// Both ways must be all or nothing, and a `returning()` row must read as Drizzle's own would.
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});
afterAll(() => handle?.close());

const message = (n: number) => ({ firstName: "Lerato", lastName: `Test ${n}`, email: `l${n}@example.com`, subject: "Hello", message: `Message ${n}` });
const notice = { to: "owner@example.com", subject: "New contact message", text: "hi" };

describe("writeTogether", () => {
  it("lands every statement, and the second can use the id the first took", async () => {
    await writeTogether(handle.db, [
      handle.db.insert(contactSubmissions).values(message(1)),
      emailInsert(handle.db, { ...notice, dedupeKey: sql`'contact:' || currval(pg_get_serial_sequence('contact_submissions', 'id'))` }),
    ]);
    const [stored] = await handle.db.select().from(contactSubmissions).where(eq(contactSubmissions.lastName, "Test 1"));
    const [email] = await handle.db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `contact:${stored!.id}`));
    expect(email).toMatchObject({ toAddress: "owner@example.com", status: "pending" });
  });

  it("lands nothing when one statement fails", async () => {
    const before = await handle.db.select().from(contactSubmissions);
    await expect(
      writeTogether(handle.db, [
        handle.db.insert(contactSubmissions).values(message(2)),
        // No such column: the whole batch is refused.
        handle.db.insert(contactSubmissions).values({ ...message(3), firstName: sql`nope` as unknown as string }),
      ]),
    ).rejects.toThrow();
    expect(await handle.db.select().from(contactSubmissions)).toHaveLength(before.length);
    // And the database goes on working.
    await writeTogether(handle.db, [handle.db.insert(contactSubmissions).values(message(4))]);
    expect(await handle.db.select().from(contactSubmissions)).toHaveLength(before.length + 1);
  });

  it("gives back a returning() row that reads as Drizzle's own select does (dates, numbers, nulls)", async () => {
    const id = randomUUID();
    const at = new Date("2026-11-25T10:15:30.123Z");
    const [[raw]] = await writeTogether(handle.db, [
      handle.db
        .insert(orders)
        .values({
          id,
          reference: "HB-TOGETHER",
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
        .returning(),
    ]);
    const [selected] = await handle.db.select().from(orders).where(eq(orders.id, id));
    const mapped = rowFromDriver(orders, raw!);
    expect(mapped).toEqual(selected);
    expect(mapped.createdAt).toEqual(at);
    expect(mapped.completedAt).toBeNull();
  });

  it("refuses a transaction in place of the database", async () => {
    await expect(handle.db.transaction((tx) => writeTogether(tx as never, [tx.insert(contactSubmissions).values(message(5))]))).rejects.toThrow(
      /needs the app's database/,
    );
  });
});

describe("queueEmail about an order", () => {
  it("writes the order's history entry with the email, in one statement, and neither for a repeat", async () => {
    const id = randomUUID();
    await handle.db.insert(orders).values({
      id,
      reference: "HB-EMAILED1",
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
    const email = { to: "a@example.com", subject: "Thank you", text: "paid", orderId: id, dedupeKey: `confirm:${id}`, attachments: [{ filename: "a.ics", contentType: "text/calendar", contentBase64: "QQ==" }] };
    expect(await queueEmail(handle.db, email)).toBe(true);
    expect(await queueEmail(handle.db, email)).toBe(false);
    const [queued] = await handle.db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `confirm:${id}`));
    const events = await handle.db.select().from(orderEvents).where(eq(orderEvents.orderId, id));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: "email", summary: "Email queued to a@example.com: Thank you", detail: { outboxId: queued!.id, attachments: ["a.ics"] } });
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
