import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvCell, csvRow } from "~/admin/csv";
import { loadDashboardData } from "~/analytics/dashboard.server";
import { periodStartDay } from "~/analytics/days";
import { ANALYTICS_EVENT_TYPES } from "~/analytics/event-schema";
import { activityLabel, pageLabel, relativeTime } from "~/analytics/labels";
import { lastRolledDay, rollUpAnalytics } from "~/analytics/rollup.server";
import type { DatabaseHandle } from "~/db/client.server";
import { analyticsEvents, contactSubmissions, orders } from "~/db/schema";
import { createTestDatabase } from "../support/test-db";

const NOW = new Date("2025-09-10T10:00:00+02:00");
let handle: DatabaseHandle;
const at = (iso: string) => new Date(iso);

type Ev = {
  sessionId: string;
  eventType: string;
  pagePath: string;
  createdAt: Date;
  referrer?: string;
  itemName?: string;
};
const ev = (sessionId: string, eventType: string, pagePath: string, createdAt: string, referrer?: string): Ev => ({
  sessionId,
  eventType,
  pagePath,
  createdAt: at(createdAt),
  referrer,
});

beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
  const today: Ev[] = [
    // 8 page views today from 3 sessions: / x4, /events x2, /blog x1, /about x1.
    ev("s1", "page_view", "/", "2025-09-10T09:59:30+02:00", "https://www.google.com/search"),
    ev("s1", "page_view", "/events", "2025-09-10T09:58:00+02:00", "https://www.google.com/search"),
    ev("s1", "event_view", "/tickets/x", "2025-09-10T09:57:00+02:00"),
    ev("s2", "page_view", "/", "2025-09-10T09:30:00+02:00", "https://instagram.com/honey"),
    ev("s2", "page_view", "/", "2025-09-10T09:00:00+02:00"),
    ev("s2", "product_view", "/product/a", "2025-09-10T08:00:00+02:00"),
    ev("s3", "page_view", "/", "2025-09-10T07:00:00+02:00", "http://localhost:3000/"),
    ev("s3", "page_view", "/events", "2025-09-10T06:00:00+02:00"),
    ev("s3", "page_view", "/blog", "2025-09-10T05:00:00+02:00"),
    ev("s3", "page_view", "/about", "2025-09-10T04:00:00+02:00"),
    ev("s3", "consultation_booking", "/consultation-services", "2025-09-10T03:00:00+02:00"),
    ev("s3", "checkout_page_viewed", "/checkout", "2025-09-10T02:00:00+02:00"),
    ev("s3", "checkout_attempted", "/checkout", "2025-09-10T02:01:00+02:00"),
  ];
  const earlier: Ev[] = [
    // Yesterday (SA day 2025-09-09, including 23:30 SA which is 21:30 UTC) and 5 days ago.
    ev("s1", "page_view", "/contact", "2025-09-09T23:30:00+02:00"),
    ev("s4", "page_view", "/contact", "2025-09-09T00:10:00+02:00", "https://www.google.com/"),
    ev("s4", "checkout_page_viewed", "/checkout", "2025-09-09T00:11:00+02:00"),
    ev("s5", "page_view", "/styled-collections", "2025-09-05T12:00:00+02:00"),
    ev("s5", "product_view", "/product/b", "2025-09-05T12:01:00+02:00"),
    ev("s6", "page_view", "/", "2025-08-01T12:00:00+02:00"),
  ];
  await handle.db.insert(analyticsEvents).values([...today, ...earlier]);
  await handle.db.insert(contactSubmissions).values({
    firstName: "Thandi",
    lastName: "M",
    email: "thandi@example.test",
    subject: "Hello",
    message: "Hi",
    createdAt: at("2025-09-10T09:00:00+02:00"),
  });
  await handle.db.insert(orders).values({
    reference: "HB-1",
    orderType: "product",
    itemName: "Beaded jewellery",
    amountCents: 45000,
    status: "paid",
    customerFirstName: "Ayanda",
    customerLastName: "N",
    customerEmail: "ayanda@example.test",
    customerPhone: "0820000000",
    customerAddress: "Cape Town",
    provider: "simulator",
    idempotencyKey: "k1",
    createdAt: at("2025-09-10T02:05:00+02:00"),
  });
});
afterAll(() => handle?.close());

describe("dashboard data", () => {
  it("computes the counters, popular pages with percentages, funnel and referrers for all time", async () => {
    const data = await loadDashboardData(handle.db, { period: "all", now: NOW, ownHosts: ["localhost"] });
    expect(data.counters).toEqual({ visitors: 6, pageViews: 12, productViews: 2, eventViews: 1 });
    expect(data.popularPages).toEqual([
      { path: "/", visits: 5, percent: 42 },
      { path: "/contact", visits: 2, percent: 17 },
      { path: "/events", visits: 2, percent: 17 },
      { path: "/about", visits: 1, percent: 8 },
      { path: "/blog", visits: 1, percent: 8 },
    ]);
    expect(data.funnel).toEqual([
      { step: "Checkout viewed", count: 2, fromPrevious: null },
      { step: "Checkout attempted", count: 1, fromPrevious: 50 },
      { step: "Checkout created", count: 0, fromPrevious: 0 },
      { step: "Paid orders", count: 1, fromPrevious: 0 },
    ]);
    // Sessions per referring host; the site's own host is left out.
    expect(data.referrers).toEqual([
      { host: "www.google.com", sessions: 2 },
      { host: "instagram.com", sessions: 1 },
    ]);
    expect(data.recentActivity).toHaveLength(10);
    expect(data.recentActivity[0]).toMatchObject({ eventType: "page_view", pagePath: "/" });
    expect(data.checkouts[0]).toMatchObject({ customerName: "Ayanda N", amountCents: 45000, status: "paid" });
    expect(data.contacts[0]).toMatchObject({ name: "Thandi M", email: "thandi@example.test" });
  });

  it("limits the numbers to the chosen period, by South African days", async () => {
    const today = await loadDashboardData(handle.db, { period: "today", now: NOW });
    expect(today.counters).toEqual({ visitors: 3, pageViews: 8, productViews: 1, eventViews: 1 });
    expect(today.daily).toEqual([{ day: "2025-09-10", visitors: 3, pageViews: 8 }]);
    const week = await loadDashboardData(handle.db, { period: "7d", now: NOW });
    expect(week.counters.pageViews).toBe(11);
    expect(week.counters.visitors).toBe(5);
    expect(week.daily).toHaveLength(7);
    expect(week.daily.find((d) => d.day === "2025-09-09")).toEqual({ day: "2025-09-09", visitors: 2, pageViews: 2 });
    expect(periodStartDay("30d", NOW)).toBe("2025-08-12");
  });

  it("gives the same numbers from the daily rollups as from the raw events", async () => {
    // The loads above already rolled up every ended day.
    expect(await lastRolledDay(handle.db)).toBe("2025-09-09");
    // A copy of the same events that is never rolled up: everything is read live.
    const fresh = await createTestDatabase({ seed: false });
    try {
      const rows = await handle.db.select().from(analyticsEvents);
      await fresh.db.insert(analyticsEvents).values(rows.map(({ id: _id, ...r }) => r));
      await fresh.db.insert(orders).values(await handle.db.select().from(orders));
      await fresh.db.insert(contactSubmissions).values(await handle.db.select().from(contactSubmissions));
      for (const period of ["today", "7d", "30d", "90d", "all"] as const) {
        const options = { period, now: NOW, ownHosts: ["localhost"] };
        const rolled = await loadDashboardData(handle.db, options);
        const raw = await loadDashboardData(fresh.db, { ...options, skipRollup: true });
        expect(await lastRolledDay(fresh.db)).toBeNull();
        expect(rolled).toEqual(raw);
      }
    } finally {
      await fresh.close();
    }
  });

  it("rolls up incrementally and only days that ended", async () => {
    expect(await rollUpAnalytics(handle.db, NOW)).toBe(0);
    // Just after midnight the day that ended is still in its grace period.
    expect(await rollUpAnalytics(handle.db, new Date("2025-09-11T00:05:00+02:00"))).toBe(0);
    expect(await rollUpAnalytics(handle.db, new Date("2025-09-11T00:15:00+02:00"))).toBe(1);
    expect(await lastRolledDay(handle.db)).toBe("2025-09-10");
    const after = await loadDashboardData(handle.db, { period: "all", now: new Date("2025-09-11T00:15:00+02:00") });
    expect(after.counters).toEqual({ visitors: 6, pageViews: 12, productViews: 2, eventViews: 1 });
  });
});

describe("labels and formatting", () => {
  it("uses the spec's page and activity labels", () => {
    expect(pageLabel("/")).toBe("Home Page");
    expect(pageLabel("/styled-collections")).toBe("Products");
    expect(pageLabel("/consultation-services")).toBe("Consultation Services");
    expect(pageLabel("/product/x")).toBe("/product/x");
    expect(activityLabel("page_view")).toBe("Page visited");
    expect(activityLabel("product_view")).toBe("Product viewed");
    expect(activityLabel("event_view")).toBe("Event viewed");
    expect(activityLabel("consultation_booking")).toBe("Consultation booked");
    // The owner never reads the stored name of an event type.
    for (const type of ANALYTICS_EVENT_TYPES) expect(activityLabel(type), type).not.toMatch(/_/);
  });

  it("shows the spec's relative times", () => {
    const ago = (ms: number) => relativeTime(new Date(NOW.getTime() - ms), NOW);
    expect(ago(59_000)).toBe("Just now");
    expect(ago(5 * 60_000)).toBe("5 minutes ago");
    expect(ago(59 * 60_000)).toBe("59 minutes ago");
    expect(ago(3 * 3600_000)).toBe("3 hours ago");
    expect(ago(2 * 86_400_000)).toBe("2 days ago");
  });

  it("neutralises CSV injection and quotes cells", () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell("+27 82")).toBe("'+27 82");
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell("@sum")).toBe("'@sum");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell(null)).toBe("");
    expect(csvRow(["a", 1])).toBe("a,1\r\n");
  });
});
