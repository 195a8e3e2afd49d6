import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { emailOutbox, orders } from "~/db/schema";
import { deliverPendingEmails, queueEmail } from "~/email/outbox.server";
import { runSimulatorIntent } from "~/orders/simulator-actions.server";
import { createTestDatabase, testContext } from "../support/test-db";
import { startSmtpSink } from "../fakes/smtp-sink";
import { checkout, orderIdFrom } from "../support/checkout";

let handle: DatabaseHandle;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  handle = await createTestDatabase();
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
  await handle?.close();
});

describe("order emails over real SMTP", () => {
  it("a paid order's two emails reach an SMTP server on 127.0.0.1 and are marked sent", async () => {
    const id = orderIdFrom(await checkout(handle, "product", "Beaded Jewellery"));
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, id));
    await runSimulatorIntent(testContext(handle), order!, "pay");

    const settings = { smtpUrl: sink.url, from: "Shop <shop@example.test>" };
    const result = await deliverPendingEmails(handle.db, settings, undefined, () => {});
    expect(result).toEqual({ sent: 2, failed: 0 });
    expect(sink.messages.map((m) => m.to).sort()).toEqual([["owner@example.test"], ["thandi@example.com"]]);
    const customer = sink.messages.find((m) => m.to[0] === "thandi@example.com")!;
    expect(customer.from).toBe("shop@example.test");
    const text = customer.raw.replace(/=\r?\n/g, "");
    for (const part of ["Beaded Jewellery", "R 450.00", order!.reference, "processed within 1-2 business days"])
      expect(text).toContain(part);
    expect((await handle.db.select().from(emailOutbox)).map((e) => e.status)).toEqual(["sent", "sent"]);
    // A second pass sends nothing again.
    expect(await deliverPendingEmails(handle.db, settings, undefined, () => {})).toEqual({ sent: 0, failed: 0 });
    expect(sink.messages).toHaveLength(2);
  });
});

describe("without SMTP", () => {
  it("each message is written to the log once, however many were kept before it, and all stay pending", async () => {
    await handle.db.delete(emailOutbox);
    const queue = (n: number) =>
      queueEmail(handle.db, {
        to: `guest${n}@example.com`,
        subject: `Hello ${n}`,
        text: "Hi",
        dedupeKey: `no-smtp:${n}`,
      });
    for (let n = 0; n < 25; n++) await queue(n);
    const pass = async () => {
      const lines: string[] = [];
      expect(
        await deliverPendingEmails(handle.db, { from: "Shop <shop@example.test>" }, undefined, (line) =>
          lines.push(line),
        ),
      ).toEqual({ sent: 0, failed: 0 });
      return lines.map((line) => /to=(\S+)/.exec(line)![1]);
    };
    expect(await pass()).toEqual(Array.from({ length: 20 }, (_, n) => `guest${n}@example.com`));
    // The 20 already logged wait for SMTP; the next pass gets to the rest.
    expect(await pass()).toEqual(Array.from({ length: 5 }, (_, n) => `guest${20 + n}@example.com`));
    await queue(25);
    expect(await pass()).toEqual(["guest25@example.com"]);
    expect(await pass()).toEqual([]);
    const rows = await handle.db.select().from(emailOutbox);
    expect(rows).toHaveLength(26);
    expect(rows.every((row) => row.status === "pending" && row.attempts === 1)).toBe(true);
  });
});
