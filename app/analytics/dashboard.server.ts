import { desc, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { analyticsEvents, contactSubmissions, orders } from "~/db/schema";
import { addDays, type Period, periodStartDay, saDay, saDayStart } from "./days";
import { rowsOf } from "./ingest.server";
import {
  lastRolledDay,
  rollUpAnalytics,
  SESSION_LAST_DAY,
  SESSIONS_LAST_SEEN,
  SQL_EPOCH,
  SQL_NO_DAY,
  SQL_REFERRER_HOST,
  SQL_SA_DAY,
  VISITORS_PER_DAY,
} from "./rollup.server";

export const RECENT_ACTIVITY_LIMIT = 10;
export const RECENT_CHECKOUTS_LIMIT = 20;
export const RECENT_CONTACTS_LIMIT = 20;
export const POPULAR_PAGES_LIMIT = 5;
export const TOP_REFERRERS_LIMIT = 5;
/** The chart shows at most this many days (all time starts at the first day with data). */
export const CHART_MAX_DAYS = 366;

const COUNTED_TYPES = [
  "page_view",
  "product_view",
  "event_view",
  "checkout_page_viewed",
  "checkout_attempted",
  "checkout_created_success",
  // The bag's funnel (issue 39), rolled up like every other type.
  "add_to_bag",
  "bag_viewed",
  "checkout_started",
] as const;

export interface DashboardData {
  period: Period;
  counters: { visitors: number; pageViews: number; productViews: number; eventViews: number };
  popularPages: { path: string; visits: number; percent: number }[];
  daily: { day: string; visitors: number; pageViews: number }[];
  funnel: { step: string; count: number; fromPrevious: number | null }[];
  /** Added to bag, bag viewed, bag checkout started, bag orders paid (issue 39). */
  bagFunnel: { step: string; count: number; fromPrevious: number | null }[];
  referrers: { host: string; sessions: number }[];
  recentActivity: { id: number; eventType: string; pagePath: string; itemName: string | null; createdAt: string }[];
  contacts: { id: number; name: string; email: string; subject: string; message: string; createdAt: string }[];
  checkouts: {
    id: string;
    customerName: string;
    customerEmail: string;
    itemName: string;
    amountCents: number;
    status: string;
    orderType: string;
    createdAt: string;
  }[];
}

/** Percentage rounded to a whole number; 0 when there is nothing to divide by. */
export const percentOf = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

/**
 * Everything the dashboard shows, for one period. Ended days are read from the daily rollups and
 * only events after the last rolled-up day from analytics_events, so the cost grows with the number
 * of days, not of events. Runs the incremental rollup first (usually a no-op).
 */
export async function loadDashboardData(
  db: Database,
  options: { period: Period; now: Date; ownHosts?: string[]; skipRollup?: boolean },
): Promise<DashboardData> {
  const { period, now } = options;
  if (!options.skipRollup) await rollUpAnalytics(db, now);
  const rolled = await lastRolledDay(db);
  const fromDay = periodStartDay(period, now);
  const liveFromDay = rolled && (!fromDay || rolled >= fromDay) ? addDays(rolled, 1) : fromDay;
  const liveFrom = liveFromDay ? saDayStart(liveFromDay).toISOString() : null;

  // All time starts after the rows that belong to no one day (rollup.server.ts), so an index scan skips them.
  const dailyRange: SQL = fromDay ? sql`day >= ${fromDay}::date` : sql`day > ${SQL_NO_DAY}`;
  const seenInPeriod: SQL = fromDay ? sql`>= ${fromDay}::date - ${SQL_EPOCH}` : sql`is not null`;
  const liveRange: SQL = liveFrom ? sql`created_at >= ${liveFrom}` : sql`true`;
  const inTypes = sql.join(
    COUNTED_TYPES.map((t) => sql`${t}`),
    sql`, `,
  );

  const [
    typeRows,
    visitorRows,
    pageRows,
    dailyViews,
    dailyVisitors,
    referrerRows,
    paidRows,
    activity,
    contacts,
    checkouts,
    paidBagRows,
  ] = await Promise.all([
    db.execute(sql`
        select event_type, sum(n)::int as n from (
          select event_type, sum(events) as n from analytics_daily where ${dailyRange} and event_type in (${inTypes}) group by event_type
          union all
          select event_type, count(*) from analytics_events where ${liveRange} and event_type in (${inTypes}) group by event_type
        ) x group by event_type`),
    // Sessions whose last rolled-up page view is in the period, plus the live sessions not among
    // them: each live session's last rolled-up day is one primary-key lookup (its SESSION_LAST_DAY
    // row), whatever the number of sessions rolled up before.
    db.execute(sql`
        with live as materialized (
          select distinct session_id from analytics_events where ${liveRange} and event_type = 'page_view'
        )
        select
          (select coalesce(sum(events), 0) from analytics_daily where ${dailyRange} and event_type = ${SESSIONS_LAST_SEEN})::int
          + (select count(*) from live)::int
          - (select count(*) from analytics_daily
             where day = ${SQL_NO_DAY} and event_type = ${SESSION_LAST_DAY}
               and page_path = any(array(select session_id from live)) and events ${seenInPeriod})::int as n`),
    db.execute(sql`
        select page_path, sum(n)::int as n from (
          select page_path, sum(events) as n from analytics_daily where ${dailyRange} and event_type = 'page_view' group by page_path
          union all
          select page_path, count(*) from analytics_events where ${liveRange} and event_type = 'page_view' group by page_path
        ) x group by page_path order by n desc, page_path limit ${POPULAR_PAGES_LIMIT}`),
    db.execute(sql`
        select day::text as day, sum(n)::int as n from (
          select day, sum(events) as n from analytics_daily where ${dailyRange} and event_type = 'page_view' group by day
          union all
          select ${SQL_SA_DAY} as day, count(*) from analytics_events where ${liveRange} and event_type = 'page_view' group by 1
        ) x group by day`),
    db.execute(sql`
        select day::text as day, sum(n)::int as n from (
          select day, events as n from analytics_daily where ${dailyRange} and event_type = ${VISITORS_PER_DAY} and events > 0
          union all
          select ${SQL_SA_DAY} as day, count(distinct session_id) from analytics_events
          where ${liveRange} and event_type = 'page_view' group by 1
        ) x group by day`),
    db.execute(sql`
        select host, sum(n)::int as n from (
          select referrer_host as host, sum(sessions) as n from analytics_daily_referrers where ${dailyRange} group by referrer_host
          union all
          select host, count(distinct session_id) from (
            select ${SQL_REFERRER_HOST} as host, session_id from analytics_events where ${liveRange} and referrer is not null
          ) r where host is not null group by host
        ) x group by host order by n desc, host limit ${TOP_REFERRERS_LIMIT + (options.ownHosts?.length ?? 0)}`),
    db.execute(sql`
        select count(*)::int as n from orders where status = 'paid'
        ${fromDay ? sql`and created_at >= ${saDayStart(fromDay).toISOString()}` : sql``}`),
    db
      .select({
        id: analyticsEvents.id,
        eventType: analyticsEvents.eventType,
        pagePath: analyticsEvents.pagePath,
        itemName: analyticsEvents.itemName,
        createdAt: analyticsEvents.createdAt,
      })
      .from(analyticsEvents)
      .orderBy(desc(analyticsEvents.createdAt), desc(analyticsEvents.id))
      .limit(RECENT_ACTIVITY_LIMIT),
    db
      .select()
      .from(contactSubmissions)
      .orderBy(desc(contactSubmissions.createdAt), desc(contactSubmissions.id))
      .limit(RECENT_CONTACTS_LIMIT),
    db.select().from(orders).orderBy(desc(orders.createdAt)).limit(RECENT_CHECKOUTS_LIMIT),
    // A bag's order counts as paid even once refunded, in part or whole: it was bought. The partial index
    // of bag orders by date keeps the count to a bag's orders.
    db.execute(sql`
        select count(*)::int as n from orders
        where from_bag and status in ('paid', 'partially_refunded', 'refunded')
        ${fromDay ? sql`and created_at >= ${saDayStart(fromDay).toISOString()}` : sql``}`),
  ]);

  const byType = new Map(rowsOf<{ event_type: string; n: number }>(typeRows).map((r) => [r.event_type, Number(r.n)]));
  const count = (type: string) => byType.get(type) ?? 0;
  const pageViews = count("page_view");

  const funnelSteps: [string, number][] = [
    ["Checkout viewed", count("checkout_page_viewed")],
    ["Checkout attempted", count("checkout_attempted")],
    ["Checkout created", count("checkout_created_success")],
    ["Paid orders", Number(rowsOf<{ n: number }>(paidRows)[0]?.n ?? 0)],
  ];

  const bagSteps: [string, number][] = [
    ["Added to bag", count("add_to_bag")],
    ["Bag viewed", count("bag_viewed")],
    ["Checkout started", count("checkout_started")],
    ["Paid", Number(rowsOf<{ n: number }>(paidBagRows)[0]?.n ?? 0)],
  ];

  const views = new Map(rowsOf<{ day: string; n: number }>(dailyViews).map((r) => [r.day, Number(r.n)]));
  const visitorsByDay = new Map(rowsOf<{ day: string; n: number }>(dailyVisitors).map((r) => [r.day, Number(r.n)]));
  const today = saDay(now);
  const dataDays = [...views.keys(), ...visitorsByDay.keys()].sort();
  let chartFrom = fromDay ?? dataDays[0] ?? today;
  if (chartFrom < addDays(today, -(CHART_MAX_DAYS - 1))) chartFrom = addDays(today, -(CHART_MAX_DAYS - 1));
  const daily: DashboardData["daily"] = [];
  for (let day = chartFrom; day <= today; day = addDays(day, 1)) {
    daily.push({ day, visitors: visitorsByDay.get(day) ?? 0, pageViews: views.get(day) ?? 0 });
  }

  const own = new Set((options.ownHosts ?? []).map((h) => h.toLowerCase()));
  return {
    period,
    counters: {
      visitors: Number(rowsOf<{ n: number }>(visitorRows)[0]?.n ?? 0),
      pageViews,
      productViews: count("product_view"),
      eventViews: count("event_view"),
    },
    popularPages: rowsOf<{ page_path: string; n: number }>(pageRows).map((r) => ({
      path: r.page_path,
      visits: Number(r.n),
      percent: percentOf(Number(r.n), pageViews),
    })),
    daily,
    funnel: funnelSteps.map(([step, n], i) => ({
      step,
      count: n,
      fromPrevious: i === 0 ? null : percentOf(n, funnelSteps[i - 1][1]),
    })),
    bagFunnel: bagSteps.map(([step, n], i) => ({
      step,
      count: n,
      fromPrevious: i === 0 ? null : percentOf(n, bagSteps[i - 1][1]),
    })),
    referrers: rowsOf<{ host: string; n: number }>(referrerRows)
      .filter((r) => !own.has(r.host))
      .slice(0, TOP_REFERRERS_LIMIT)
      .map((r) => ({ host: r.host, sessions: Number(r.n) })),
    recentActivity: activity.map((a) => ({ ...a, createdAt: a.createdAt.toISOString() })),
    contacts: contacts.map((c) => ({
      id: c.id,
      name: `${c.firstName} ${c.lastName}`.trim(),
      email: c.email,
      subject: c.subject,
      message: c.message,
      createdAt: c.createdAt.toISOString(),
    })),
    checkouts: checkouts.map((o) => ({
      id: o.id,
      customerName: `${o.customerFirstName} ${o.customerLastName}`.trim(),
      customerEmail: o.customerEmail,
      itemName: o.itemName,
      amountCents: o.amountCents,
      status: o.status,
      orderType: o.orderType,
      createdAt: o.createdAt.toISOString(),
    })),
  };
}
