import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDashboardData } from "~/analytics/dashboard.server";
import { PERIODS } from "~/analytics/days";
import {
  rollUpAnalytics,
  SESSION_LAST_DAY,
  SESSIONS_LAST_SEEN,
  SESSIONS_THROUGH,
  VISITORS_PER_DAY,
} from "~/analytics/rollup.server";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { analyticsEvents } from "~/db/schema";
import { createTestDatabase } from "../support/test-db";

/**
 * The visitor counts kept in the rollups (per-day visitors and each session's last day) must give
 * exactly what counting distinct sessions in the raw events gives, however the days are rolled up:
 * one at a time, all at once, by two instances at once, or for a database rolled up before those
 * rows existed.
 */

let rolled: DatabaseHandle;
let raw: DatabaseHandle;
/** A second instance's connection to the rolled database (PostgreSQL), or the same handle (PGlite). */
let rolledAgain: DatabaseHandle;

const sa = (local: string) => new Date(`${local}+02:00`);
// Sessions over ten days, several coming back on later days (a tab kept open), some only today.
const EVENTS: [string, string, string][] = [
  ["a", "page_view", "2025-09-01T09:00:00"],
  ["a", "page_view", "2025-09-03T23:59:00"],
  ["b", "page_view", "2025-09-02T10:00:00"],
  ["b", "product_view", "2025-09-08T10:00:00"],
  ["c", "page_view", "2025-09-02T00:00:30"],
  ["c", "page_view", "2025-09-09T12:00:00"],
  ["d", "event_view", "2025-09-04T12:00:00"],
  ["e", "page_view", "2025-09-05T12:00:00"],
  ["e", "page_view", "2025-09-05T13:00:00"],
  ["a", "page_view", "2025-09-10T08:00:00"],
  ["f", "page_view", "2025-09-10T08:30:00"],
  ["c", "page_view", "2025-09-10T09:00:00"],
  ["g", "page_view", "2025-09-07T18:00:00"],
  ["g", "page_view", "2025-09-10T09:30:00"],
];

beforeAll(async () => {
  rolled = await createTestDatabase({ seed: false });
  raw = await createTestDatabase({ seed: false });
  const rows = EVENTS.map(([sessionId, eventType, at]) => ({
    sessionId: `session-${sessionId}`,
    eventType,
    pagePath: eventType === "page_view" ? "/" : "/product/x",
    createdAt: sa(at),
  }));
  await rolled.db.insert(analyticsEvents).values(rows);
  await raw.db.insert(analyticsEvents).values(rows);
  const url = rolled.raw.pool?.options.connectionString;
  rolledAgain = url ? await openDatabase({ databaseUrl: url }) : rolled;
});
afterAll(async () => {
  if (rolledAgain && rolledAgain !== rolled) await rolledAgain.close();
  await rolled?.close();
  await raw?.close();
});

/** Every period's numbers from the rollups equal those from the raw events, at `now`. */
async function expectSameAsRaw(now: Date) {
  for (const { value: period } of PERIODS) {
    const fromRollups = await loadDashboardData(rolled.db, { period, now, skipRollup: true });
    const fromEvents = await loadDashboardData(raw.db, { period, now, skipRollup: true });
    expect({ period, counters: fromRollups.counters, daily: fromRollups.daily }).toEqual({
      period,
      counters: fromEvents.counters,
      daily: fromEvents.daily,
    });
  }
}

describe("visitor rollups", () => {
  it("match the raw events when the days are rolled up one at a time", async () => {
    for (let day = 2; day <= 11; day++) {
      const now = sa(`2025-09-${String(day).padStart(2, "0")}T00:30:00`);
      await rollUpAnalytics(rolled.db, now);
      await expectSameAsRaw(now);
    }
    // All time: a-g, seven sessions, six with page views (d only viewed an event).
    const all = await loadDashboardData(rolled.db, { period: "all", now: sa("2025-09-11T00:30:00"), skipRollup: true });
    expect(all.counters.visitors).toBe(6);
  });

  it("keep one last day per session", async () => {
    const result = await rolled.db.execute(
      sql`select coalesce(sum(events), 0)::int as n from analytics_daily where event_type = ${SESSIONS_LAST_SEEN}`,
    );
    expect((result as unknown as { rows: { n: number }[] }).rows[0].n).toBe(6);
  });

  it("keep one row per session holding its last day, looked up by key", async () => {
    const rows = await rolled.db.execute(sql`
      select page_path as session, ((date '1970-01-01') + events)::text as last_day from analytics_daily
      where day = '-infinity' and event_type = ${SESSION_LAST_DAY} order by 1`);
    expect((rows as unknown as { rows: unknown[] }).rows).toEqual([
      { session: "session-a", last_day: "2025-09-10" },
      // b's later day had no page view; d never had one.
      { session: "session-b", last_day: "2025-09-02" },
      { session: "session-c", last_day: "2025-09-10" },
      { session: "session-e", last_day: "2025-09-05" },
      { session: "session-f", last_day: "2025-09-10" },
      { session: "session-g", last_day: "2025-09-10" },
    ]);
  });

  it("are rebuilt for a database rolled up before they existed", async () => {
    await rolled.db.execute(
      sql`delete from analytics_daily where event_type in (${VISITORS_PER_DAY}, ${SESSIONS_LAST_SEEN})`,
    );
    const now = sa("2025-09-11T12:00:00");
    expect(await rollUpAnalytics(rolled.db, now)).toBe(0);
    await expectSameAsRaw(now);
  });

  it("are rebuilt before new days are rolled up onto a database rolled up without the per-session rows", async () => {
    await rolled.db.execute(
      sql`truncate analytics_daily, analytics_daily_sessions, analytics_daily_referrers, analytics_rollup_days`,
    );
    await rollUpAnalytics(rolled.db, sa("2025-09-06T00:30:00"));
    // As decision 056's code left it: no per-session rows, no mark of the day they are kept up to.
    await rolled.db.execute(
      sql`delete from analytics_daily where event_type in (${SESSION_LAST_DAY}, ${SESSIONS_THROUGH})`,
    );
    // Sessions a, c and g come back on the days rolled up next.
    for (let day = 7; day <= 11; day++) {
      const now = sa(`2025-09-${String(day).padStart(2, "0")}T00:30:00`);
      await rollUpAnalytics(rolled.db, now);
      await expectSameAsRaw(now);
    }
  });

  it("are rebuilt when an older instance rolled up a day without keeping the per-session rows", async () => {
    await rolled.db.execute(
      sql`truncate analytics_daily, analytics_daily_sessions, analytics_daily_referrers, analytics_rollup_days`,
    );
    await rollUpAnalytics(rolled.db, sa("2025-09-10T00:30:00"));
    // That instance rolled up 2025-09-09, when c came back, but left c's row at its earlier day and
    // the mark at 2025-09-08. Rolling up 2025-09-10 (c again) from those rows would move c's visit
    // from the wrong day.
    await rolled.db.execute(sql`
      update analytics_daily set events = date '2025-09-02' - date '1970-01-01'
      where day = '-infinity' and event_type = ${SESSION_LAST_DAY} and page_path = 'session-c'`);
    await rolled.db.execute(sql`
      update analytics_daily set events = date '2025-09-08' - date '1970-01-01'
      where day = '-infinity' and event_type = ${SESSIONS_THROUGH}`);
    const now = sa("2025-09-11T00:30:00");
    expect(await rollUpAnalytics(rolled.db, now)).toBe(1);
    await expectSameAsRaw(now);
  });

  it("are not counted twice when two instances roll up the same days at once", async () => {
    await rolled.db.execute(
      sql`truncate analytics_daily, analytics_daily_sessions, analytics_daily_referrers, analytics_rollup_days`,
    );
    const now = sa("2025-09-10T12:00:00");
    const done = await Promise.all([rollUpAnalytics(rolled.db, now), rollUpAnalytics(rolledAgain.db, now)]);
    expect(done.sort()).toEqual([0, 9]);
    await expectSameAsRaw(now);
  });
});
