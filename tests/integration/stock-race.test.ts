import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { catalogItems, orders, stockHolds } from "~/db/schema";
import { recordPayment } from "~/orders/payment-events.server";
import { HoldLimitError, OutOfStockError } from "~/stock/holds.server";
import { closePendingOrder, createPendingOrder } from "~/orders/orders.server";
import { createPendingBagOrder } from "~/orders/bag-order.server";
import { findSellable, type Sellable } from "~/orders/sellable.server";
import { createTestDatabase } from "../support/test-db";
import { checkout, orderIdFrom } from "../support/checkout";

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

async function candy() {
  const [row] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "candy-earrings"));
  return row!;
}

describe(`stock cannot be oversold (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("50 concurrent buyers for 10 candy earrings: exactly 10 get a payment page", async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => checkout(handle, "product", "Candy Earrings")));
    const redirected = results.filter((r) => r instanceof Response);
    const refused = results.filter((r) => !(r instanceof Response));
    expect(redirected).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused)
      expect(r).toMatchObject({ toast: { title: "Checkout Error", description: "Candy Earrings is sold out." } });
    const item = await candy();
    const held = await handle.db
      .select()
      .from(stockHolds)
      .where(and(eq(stockHolds.stockKey, `catalog:${item.id}`), eq(stockHolds.status, "held")));
    expect(held.reduce((n, h) => n + h.quantity, 0)).toBe(10);
    // Every refused buyer left no order behind (the transaction rolled back).
    expect(await handle.db.select().from(orders).where(eq(orders.itemName, "Candy Earrings"))).toHaveLength(10);
    const lookup = await findSellable(handle.db, "product", "Candy Earrings", now);
    expect(lookup).toEqual({ ok: false, reason: "Candy Earrings is sold out." });

    // One buyer declines: their unit returns; the other nine pay and stock goes down to one.
    const ids = redirected.map(orderIdFrom);
    expect(await closePendingOrder(handle.db, ids[0]!, "failed", now)).toBe(true);
    for (const [i, id] of ids.slice(1).entries()) {
      const result = await recordPayment(handle.db, {
        event: { eventId: `msg_race_${i}`, provider: "simulator", eventType: "payment.succeeded", payload: {} },
        orderId: id,
        paymentId: `p_${i}`,
        amountCents: 35000,
        now,
        mail,
      });
      expect(result.outcome).toBe("paid");
    }
    expect((await candy()).stockQuantity).toBe(1);
    expect((await findSellable(handle.db, "product", "Candy Earrings", now)).ok).toBe(true);
  });

  it(
    "50 concurrent buyers for the tablecloth workshop: 8 seats in the next session (4 October by default), the " +
      "following one has 8 more",
    async () => {
      const results = await Promise.all(
        Array.from({ length: 50 }, () => checkout(handle, "workshop", "Transform Tablecloth into Wrap Around Skirt")),
      );
      const redirected = results.filter((r) => r instanceof Response);
      expect(redirected).toHaveLength(8);
      for (const r of results.filter((x) => !(x instanceof Response))) {
        expect(r).toMatchObject({
          toast: { title: "Checkout Error", description: "The workshop on Saturday, 4 October 2025 is full." },
        });
      }
      // Paying converts the holds into sold seats; the session stays full.
      for (const [i, id] of redirected.map(orderIdFrom).entries()) {
        await recordPayment(handle.db, {
          event: { eventId: `msg_ws_${i}`, provider: "simulator", eventType: "payment.succeeded", payload: {} },
          orderId: id,
          paymentId: `p_ws_${i}`,
          amountCents: 25000,
          now,
          mail,
        });
      }
      expect(await findSellable(handle.db, "workshop", "Transform Tablecloth into Wrap Around Skirt", now)).toEqual({
        ok: false,
        reason: "The workshop on Saturday, 4 October 2025 is full.",
      });
      const october = new Date("2025-10-02T10:00:00+02:00");
      expect(
        (await findSellable(handle.db, "workshop", "Transform Tablecloth into Wrap Around Skirt", october)).ok,
      ).toBe(true);
    },
  );
});

describe("a counted checkout is decided in one statement, after the key's lock (decision 142)", () => {
  const late = (email: string) => ({
    customer: { firstName: "Late", lastName: "Buyer", phone: "0821234567", address: "", email },
    provider: "simulator",
    sessionId: null,
    now,
    holdMinutes: 15,
    clientKey: `late-${email}`,
  });
  const checkouts = {
    "one item": (item: Sellable, email: string) => createPendingOrder(handle.db, { item, ...late(email) }),
    "a bag": (item: Sellable, email: string) =>
      createPendingBagOrder(handle.db, { lines: [{ item, quantity: 1 }], ...late(email) }),
  };
  // Two sessions at once need PostgreSQL: PGlite runs one statement at a time, so nothing can commit
  // between a statement's start and its lock there.
  it.skipIf(!process.env.TEST_DATABASE_URL).each(Object.keys(checkouts) as (keyof typeof checkouts)[])(
    "%s: a checkout that waited for the lock counts what the lock's holder committed meanwhile",
    async (kind) => {
      const item = await candy();
      const key = `catalog:${item.id}`;
      const email = `late-${kind.replace(" ", "-")}@example.com`;
      await handle.db.update(catalogItems).set({ stockQuantity: 1 }).where(eq(catalogItems.id, item.id));
      const found = await findSellable(handle.db, "product", "Candy Earrings", now);
      if (!found.ok) throw new Error(found.reason);
      const pool = handle.raw.pool!;
      const holder = await pool.connect();
      try {
        await holder.query("begin");
        await holder.query("select pg_advisory_xact_lock(hashtext($1))", [key]);
        const waiting = checkouts[kind](found.item, email).then(
          () => "stored",
          (error: Error) => error,
        );
        // The checkout's statement has begun (its snapshot still shows one unit) and waits for the lock.
        for (;;) {
          const { rows } = await pool.query(
            "select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted",
          );
          if (rows[0].n > 0) break;
        }
        await holder.query("update catalog_items set stock_quantity = 0 where id = $1", [item.id]);
        await holder.query("commit");
        const outcome = await waiting;
        expect(outcome).toBeInstanceOf(OutOfStockError);
        expect((outcome as OutOfStockError).message).toBe("Candy Earrings is sold out.");
        expect(await handle.db.select().from(orders).where(eq(orders.customerEmail, email))).toEqual([]);
      } finally {
        holder.release();
      }
    },
  );
});

describe(
  `one client's unpaid orders of uncounted items stay within its budget ` +
    `(${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`,
  () => {
    it("12 concurrent membership orders from one client: exactly 3 are stored, with their holds", async () => {
      const found = await findSellable(handle.db, "membership", "style-starter", now);
      if (!found.ok) throw new Error(found.reason);
      const customer = {
        firstName: "Crowd",
        lastName: "Buyer",
        email: "crowd@example.com",
        phone: "0821234567",
        address: "1 Long Street",
      };
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, () =>
          createPendingOrder(handle.db, {
            item: found.item,
            customer,
            provider: "simulator",
            sessionId: null,
            now,
            holdMinutes: 15,
            clientKey: "crowd-client",
          }),
        ),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(refused).toHaveLength(9);
      for (const r of refused) expect(r.reason).toBeInstanceOf(HoldLimitError);
      expect(await handle.db.select().from(orders).where(eq(orders.customerEmail, "crowd@example.com"))).toHaveLength(
        3,
      );
      expect(await handle.db.select().from(stockHolds).where(eq(stockHolds.clientKey, "crowd-client"))).toHaveLength(3);
    });
  },
);
