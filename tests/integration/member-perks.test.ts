import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { members, orderLines, orders, stockHolds } from "~/db/schema";
import {
  freeTicketsUsedThisMonth,
  perksForMember,
  southAfricanMonth,
  takeMemberPerks,
} from "~/pricing/member-perks.server";
import { priceLines } from "~/pricing/price-lines";
import { createTestDatabase } from "../support/test-db";

let handle: DatabaseHandle;
let glow: number;
let creative: number;
let starter: number;
beforeAll(async () => {
  handle = await createTestDatabase();
  const add = async (email: string, tierSlug: string, paidUntil: string) => {
    const [row] = await handle.db
      .insert(members)
      .values({ email, name: "Thandeka Mokoena", phone: "082 555 0101", tierSlug, paidUntil, joinedAt: new Date() })
      .returning();
    return row!.id;
  };
  glow = await add("glow@example.test", "glow-bee", "2025-10-10");
  creative = await add("creative@example.test", "creative-bee", "2025-10-10");
  starter = await add("starter@example.test", "style-starter", "2025-10-10");
});
afterAll(() => handle?.close());

const at = (iso: string) => new Date(iso);
let n = 0;
/** An order of one Sip & Style line that took `free` of the member's free tickets, made at `createdAt`. */
async function freeTicketOrder(
  memberId: number,
  createdAt: string,
  status: "paid" | "pending" | "refunded" | "expired" | "partially_refunded",
  free = 1,
  holdUntil?: string,
) {
  n += 1;
  const [order] = await handle.db
    .insert(orders)
    .values({
      reference: `HB-PERK${String(n).padStart(4, "0")}`,
      orderType: "ticket",
      itemName: "Sip & Style at Nanas - Normal Price",
      amountCents: 0,
      customerFirstName: "Thandeka",
      customerLastName: "Mokoena",
      customerEmail: "glow@example.test",
      customerPhone: "082 555 0101",
      customerAddress: "",
      provider: "simulator",
      idempotencyKey: `perk-test-${n}`,
      status,
      createdAt: at(createdAt),
    })
    .returning();
  await handle.db.insert(orderLines).values({
    orderId: order!.id,
    displayName: "Sip & Style at Nanas - Normal Price",
    quantity: free,
    unitPriceCents: 45000,
    discountCents: 45000 * free,
    discountReason: "Glow Bee: free ticket, 1 of 1 this month",
    perkMemberId: memberId,
    perkFreeTickets: free,
  });
  if (holdUntil) {
    await handle.db.insert(stockHolds).values({
      orderId: order!.id,
      stockKey: `unpaid:ticket:perk-${n}`,
      quantity: free,
      expiresAt: at(holdUntil),
    });
  }
  return order!.id;
}

describe("the South African calendar month", () => {
  it("starts and ends at midnight in Johannesburg (22:00 UTC the day before)", () => {
    expect(southAfricanMonth(at("2025-09-30T22:30:00Z"))).toEqual({
      start: at("2025-09-30T22:00:00Z"),
      end: at("2025-10-31T22:00:00Z"),
    });
    expect(southAfricanMonth(at("2025-09-30T21:59:59Z")).start).toEqual(at("2025-08-31T22:00:00Z"));
    expect(southAfricanMonth(at("2025-12-31T22:00:00Z"))).toEqual({
      start: at("2025-12-31T22:00:00Z"),
      end: at("2026-01-31T22:00:00Z"),
    });
  });
});

describe("a member's perks", () => {
  const now = at("2025-09-20T10:00:00+02:00");

  it("are the tier's while the membership is active, with the free tickets named by event", async () => {
    expect(await perksForMember(handle.db, glow, now)).toEqual({
      tierName: "Glow Bee",
      percentOffEvents: 0,
      percentOffProducts: 0,
      allEventsFree: false,
      freeTicketsPerMonth: 1,
      freeTicketEvents: ["event:sip-style"],
      freeTicketsUsedThisMonth: 0,
    });
    expect(await perksForMember(handle.db, creative, now)).toMatchObject({
      tierName: "Creative Bee",
      percentOffEvents: 10,
      freeTicketsPerMonth: 0,
    });
  });

  it("are kept while due and gone once lapsed or cancelled; a tier without perks gives none", async () => {
    expect(await perksForMember(handle.db, creative, at("2025-10-12T10:00:00+02:00"))).not.toBeNull();
    expect(await perksForMember(handle.db, creative, at("2025-11-20T10:00:00+02:00"))).toBeNull();
    await handle.db.update(members).set({ status: "cancelled" }).where(eq(members.id, creative));
    expect(await perksForMember(handle.db, creative, now)).toBeNull();
    await handle.db.update(members).set({ status: "active" }).where(eq(members.id, creative));
    expect(await perksForMember(handle.db, starter, now)).toBeNull();
    expect(await perksForMember(handle.db, 987_654, now)).toBeNull();
  });

  it("count this month's free tickets from paid orders and live holds; refunds and ended holds give them back", async () => {
    await freeTicketOrder(glow, "2025-08-31T23:30:00+02:00", "paid"); // August in Johannesburg
    await freeTicketOrder(glow, "2025-09-05T12:00:00+02:00", "refunded");
    await freeTicketOrder(glow, "2025-09-06T12:00:00+02:00", "expired", 1, "2025-09-06T12:15:00+02:00");
    await freeTicketOrder(glow, "2025-09-20T09:55:00+02:00", "pending", 1, "2025-09-20T09:58:00+02:00");
    await freeTicketOrder(creative, "2025-09-07T12:00:00+02:00", "paid");
    expect(await freeTicketsUsedThisMonth(handle.db, glow, now)).toBe(0);

    await freeTicketOrder(glow, "2025-09-01T00:00:00+02:00", "paid");
    expect(await freeTicketsUsedThisMonth(handle.db, glow, now)).toBe(1);
    await freeTicketOrder(glow, "2025-09-20T09:59:00+02:00", "pending", 2, "2025-09-20T10:14:00+02:00");
    expect(await freeTicketsUsedThisMonth(handle.db, glow, now)).toBe(3);
    expect((await perksForMember(handle.db, glow, now))?.freeTicketsUsedThisMonth).toBe(3);
    // Once that hold runs out unpaid, its two come back; next month starts again at none.
    expect(await freeTicketsUsedThisMonth(handle.db, glow, at("2025-09-20T10:20:00+02:00"))).toBe(1);
    expect(await freeTicketsUsedThisMonth(handle.db, glow, at("2025-10-01T00:00:00+02:00"))).toBe(0);
  });
});

describe("two checkouts racing for the last free ticket", () => {
  it("give one free ticket and one full price, decided before paying", async () => {
    const [racer] = await handle.db
      .insert(members)
      .values({
        email: "racer@example.test",
        name: "Lerato Racer",
        phone: "082 555 0109",
        tierSlug: "glow-bee",
        paidUntil: "2025-10-10",
        joinedAt: new Date(),
      })
      .returning();
    const now = at("2025-09-20T10:00:00+02:00");
    // Each checkout waits after counting until all have counted (or 300 ms pass), so without the lock
    // every one would count the same free ticket as unused; with it, the others wait at the lock.
    const RACERS = 4;
    let counted = 0;
    const allCounted = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (counted === RACERS) resolve();
      }, 5);
      setTimeout(() => {
        clearInterval(check);
        resolve();
      }, 300);
    });
    const checkout = (i: number) =>
      handle.db.transaction(async (tx) => {
        const perks = await takeMemberPerks(tx, racer!.id, now);
        counted += 1;
        await Promise.race([allCounted, new Promise((resolve) => setTimeout(resolve, 300))]);
        const priced = priceLines(
          [
            {
              id: "1",
              kind: "ticket",
              itemKey: "ticket-option:1",
              eventKey: "event:sip-style",
              quantity: 1,
              unitCents: 45000,
            },
          ],
          { perks },
        );
        const line = priced.lines[0]!;
        const [order] = await tx
          .insert(orders)
          .values({
            reference: `HB-RACE${String(i).padStart(4, "0")}`,
            orderType: "ticket",
            itemName: "Sip & Style at Nanas - Normal Price",
            amountCents: priced.totalCents,
            customerFirstName: "Lerato",
            customerLastName: "Racer",
            customerEmail: "racer@example.test",
            customerPhone: "082 555 0109",
            customerAddress: "",
            provider: "simulator",
            idempotencyKey: `race-${i}`,
            status: "pending",
            createdAt: now,
          })
          .returning();
        await tx.insert(orderLines).values({
          orderId: order!.id,
          displayName: "Sip & Style at Nanas - Normal Price",
          quantity: 1,
          unitPriceCents: 45000,
          discountCents: line.discountCents,
          discountReason: line.reason,
          perkMemberId: racer!.id,
          perkFreeTickets: line.freeTickets,
        });
        await tx.insert(stockHolds).values({
          orderId: order!.id,
          stockKey: `unpaid:ticket:race-${i}`,
          quantity: 1,
          expiresAt: at("2025-09-20T10:15:00+02:00"),
        });
        return priced.totalCents;
      });
    const totals = await Promise.all(Array.from({ length: RACERS }, (_, i) => checkout(i + 1)));
    expect([...totals].sort((a, b) => a - b)).toEqual([0, 45000, 45000, 45000]);
    expect(await freeTicketsUsedThisMonth(handle.db, racer!.id, now)).toBe(1);
  });
});
