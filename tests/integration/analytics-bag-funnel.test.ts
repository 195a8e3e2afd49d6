import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDashboardData } from "~/analytics/dashboard.server";
import { lastRolledDay } from "~/analytics/rollup.server";
import type { DatabaseHandle } from "~/db/client.server";
import { analyticsEvents, orders } from "~/db/schema";
import { createTestDatabase } from "../support/test-db";

// The dashboard's bag funnel (issue 39): added to bag, bag viewed, checkout started, from the events as
// the Checkout Funnel counts its own (the rollups for ended days, the raw events after them), and paid
// from the orders a bag made.
const NOW = new Date("2025-09-10T10:00:00+02:00");

let handle: DatabaseHandle;
let unrolled: DatabaseHandle;

const events = (eventType: string, n: number, createdAt: string, pagePath: string) =>
  Array.from({ length: n }, (_, i) => ({
    sessionId: `${eventType}-${createdAt}-${i}`,
    eventType,
    pagePath,
    itemName: eventType === "add_to_bag" ? "Candy Earrings" : null,
    createdAt: new Date(createdAt),
  }));

let orderCount = 0;
const order = (status: (typeof orders.$inferInsert)["status"], fromBag: boolean, createdAt: string) => ({
  reference: `HB-BAG-${++orderCount}`,
  orderType: "product",
  itemName: fromBag ? "Candy Earrings × 2, Bucket Hats" : "Candy Earrings",
  amountCents: fromBag ? 105000 : 35000,
  status,
  fromBag,
  customerFirstName: "Lindiwe",
  customerLastName: "Dlamini-Hendricks",
  customerEmail: `lindiwe${orderCount}@example.test`,
  customerPhone: "0820000000",
  customerAddress: "Durban",
  provider: "simulator",
  idempotencyKey: `bag-funnel-${orderCount}`,
  createdAt: new Date(createdAt),
});

async function fill(db: DatabaseHandle["db"]) {
  await db.insert(analyticsEvents).values([
    // Today (not rolled up yet): 4 adds, 3 views, 2 checkouts started.
    ...events("add_to_bag", 4, "2025-09-10T09:00:00+02:00", "/product/candy-earrings"),
    ...events("bag_viewed", 3, "2025-09-10T09:05:00+02:00", "/bag"),
    ...events("checkout_started", 2, "2025-09-10T09:10:00+02:00", "/checkout"),
    // Three days ago (rolled up): 6 adds, 5 views, 2 checkouts started.
    ...events("add_to_bag", 6, "2025-09-07T12:00:00+02:00", "/tickets/sip-style"),
    ...events("bag_viewed", 5, "2025-09-07T12:05:00+02:00", "/bag"),
    ...events("checkout_started", 2, "2025-09-07T12:10:00+02:00", "/checkout"),
    // Forty days ago, outside the last 30 days: 10 adds and a view.
    ...events("add_to_bag", 10, "2025-08-01T12:00:00+02:00", "/product/bucket-hats"),
    ...events("bag_viewed", 1, "2025-08-01T12:05:00+02:00", "/bag"),
    // The spec's funnel keeps its own steps.
    ...events("checkout_page_viewed", 2, "2025-09-10T08:00:00+02:00", "/checkout"),
  ]);
  await db.insert(orders).values([
    order("paid", true, "2025-09-10T09:15:00+02:00"),
    // Refunded in part since: it was bought all the same.
    order("partially_refunded", true, "2025-09-07T12:15:00+02:00"),
    // Not paid: a bag whose buyer stopped at the payment page.
    order("pending", true, "2025-09-10T09:20:00+02:00"),
    order("expired", true, "2025-09-07T12:20:00+02:00"),
    // Paid, but from "Order Now": not the bag's.
    order("paid", false, "2025-09-10T09:30:00+02:00"),
    // A bag paid forty days ago.
    order("paid", true, "2025-08-01T12:15:00+02:00"),
  ]);
}

beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
  unrolled = await createTestDatabase({ seed: false });
  await fill(handle.db);
  await fill(unrolled.db);
});
afterAll(async () => {
  await handle?.close();
  await unrolled?.close();
});

describe("the dashboard's bag funnel", () => {
  it("counts each step for all time, with each step's share of the one before", async () => {
    const data = await loadDashboardData(handle.db, { period: "all", now: NOW });
    expect(data.bagFunnel).toEqual([
      { step: "Added to bag", count: 20, fromPrevious: null },
      { step: "Bag viewed", count: 9, fromPrevious: 45 },
      { step: "Checkout started", count: 4, fromPrevious: 44 },
      { step: "Paid", count: 3, fromPrevious: 75 },
    ]);
    // The spec's Checkout Funnel is as it was: the "Order Now" order is among its paid orders, bags are not
    // its steps.
    expect(data.funnel.map((s) => [s.step, s.count])).toEqual([
      ["Checkout viewed", 2],
      ["Checkout attempted", 0],
      ["Checkout created", 0],
      ["Paid orders", 3],
    ]);
  });

  it("reads ended days from the rollups, and gives what the raw events give", async () => {
    expect(await lastRolledDay(handle.db)).toBe("2025-09-09");
    // Nothing rolled up: every event is read from analytics_events.
    const live = await loadDashboardData(unrolled.db, { period: "all", now: NOW, skipRollup: true });
    expect(await lastRolledDay(unrolled.db)).toBeNull();
    const rolled = await loadDashboardData(handle.db, { period: "all", now: NOW });
    expect(live.bagFunnel).toEqual(rolled.bagFunnel);
  });

  it("keeps to the chosen period", async () => {
    const month = await loadDashboardData(handle.db, { period: "30d", now: NOW });
    expect(month.bagFunnel).toEqual([
      { step: "Added to bag", count: 10, fromPrevious: null },
      { step: "Bag viewed", count: 8, fromPrevious: 80 },
      { step: "Checkout started", count: 4, fromPrevious: 50 },
      { step: "Paid", count: 2, fromPrevious: 50 },
    ]);
    const today = await loadDashboardData(handle.db, { period: "today", now: NOW });
    expect(today.bagFunnel.map((s) => s.count)).toEqual([4, 3, 2, 1]);
  });

  it("shows zeros, not a division by nothing, before anyone has used a bag", async () => {
    const empty = await createTestDatabase({ seed: false });
    try {
      const data = await loadDashboardData(empty.db, { period: "7d", now: NOW });
      expect(data.bagFunnel).toEqual([
        { step: "Added to bag", count: 0, fromPrevious: null },
        { step: "Bag viewed", count: 0, fromPrevious: 0 },
        { step: "Checkout started", count: 0, fromPrevious: 0 },
        { step: "Paid", count: 0, fromPrevious: 0 },
      ]);
    } finally {
      await empty.close();
    }
  });
});
