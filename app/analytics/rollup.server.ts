import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { addDays, saDay } from "./days";
import { rowsOf } from "./ingest.server";

/** A day is rolled up only once it ended this long ago, so late writes from other instances land first. */
export const ROLLUP_GRACE_MS = 10 * 60_000;

/** The SA day of an event, and the host of a referrer URL, as SQL. */
export const SQL_SA_DAY = sql.raw(`(created_at at time zone 'Africa/Johannesburg')::date`);
export const SQL_REFERRER_HOST = sql.raw(`lower(substring(referrer from '^[a-zA-Z][a-zA-Z0-9+.-]*://([^/:?#]+)'))`);

/**
 * Reserved analytics_daily rows (event types the endpoint can never accept, page_path ''), so the
 * dashboard never scans the one-row-per-session table:
 * - VISITORS_PER_DAY: sessions with a page view that day, one row for every rolled-up day;
 * - SESSIONS_LAST_SEEN: how many sessions had their last page view (so far) on that day. Every
 *   dashboard period ends today, so the sessions seen in the period's rolled-up days are the sum of
 *   these rows from its first day on. See docs/decisions/056-dashboard-visitor-rollups.md.
 */
export const VISITORS_PER_DAY = "__visitors";
export const SESSIONS_LAST_SEEN = "__last_seen";

/**
 * Reserved analytics_daily rows that belong to no one day (day '-infinity', before every real day):
 * - SESSION_LAST_DAY: one row per session with a rolled-up page view, page_path the session id,
 *   events its last such day (as days since 1970-01-01). A lookup by primary key, so the dashboard
 *   matches today's live sessions against the rolled-up ones without scanning a row per session
 *   and day, and the rollup finds a returning session's earlier last day the same way;
 * - SESSIONS_THROUGH: page_path '', events the last rolled-up day (days since 1970-01-01) those rows
 *   are kept up to. Any other value means they must be rebuilt (a database rolled up before they
 *   existed, or a day rolled up by an older instance that did not keep them).
 * See docs/decisions/056-dashboard-visitor-rollups.md (update for issue 22).
 */
export const SESSION_LAST_DAY = "__session";
export const SESSIONS_THROUGH = "__sessions_through";
/** The day of the rows above, and how a day is stored in their `events`. */
export const SQL_NO_DAY = sql.raw(`'-infinity'::date`);
export const SQL_EPOCH = sql.raw(`date '1970-01-01'`);

/** One key for the rollup's advisory lock: instances roll up one at a time. */
const ROLLUP_LOCK_KEY = 4_051_052;

type Executor = Pick<Database, "execute">;

/** The last day rolled up, or null when none is. */
export async function lastRolledDay(db: Executor): Promise<string | null> {
  const [row] = rowsOf<{ day: string | null }>(
    await db.execute(sql`select max(day)::text as day from analytics_rollup_days`),
  );
  return row?.day ?? null;
}

/**
 * Rebuilds the reserved rows for every rolled-up day from analytics_daily_sessions: once, for a
 * database rolled up before those rows existed.
 */
async function rebuildVisitorRows(tx: Executor) {
  await tx.execute(sql`
    delete from analytics_daily
    where event_type in (${VISITORS_PER_DAY}, ${SESSIONS_LAST_SEEN}, ${SESSION_LAST_DAY}, ${SESSIONS_THROUGH})`);
  await tx.execute(sql`
    insert into analytics_daily (day, event_type, page_path, events)
    select r.day, ${VISITORS_PER_DAY}, '', (select count(*)::int from analytics_daily_sessions s where s.day = r.day)
    from analytics_rollup_days r`);
  await tx.execute(sql`
    insert into analytics_daily (day, event_type, page_path, events)
    select ${SQL_NO_DAY}, ${SESSION_LAST_DAY}, session_id, max(day) - ${SQL_EPOCH}
    from analytics_daily_sessions group by session_id`);
  await tx.execute(sql`
    insert into analytics_daily (day, event_type, page_path, events)
    select ${SQL_EPOCH} + events, ${SESSIONS_LAST_SEEN}, '', count(*)::int
    from analytics_daily where day = ${SQL_NO_DAY} and event_type = ${SESSION_LAST_DAY}
    group by events`);
  await tx.execute(sql`
    insert into analytics_daily (day, event_type, page_path, events)
    select ${SQL_NO_DAY}, ${SESSIONS_THROUGH}, '', last_day - ${SQL_EPOCH}
    from (select max(day) as last_day from analytics_rollup_days) r where last_day is not null`);
}

async function needsVisitorRows(db: Executor): Promise<boolean> {
  const [row] = rowsOf<{ missing: boolean }>(
    await db.execute(sql`
      with last as (select max(day) as day from analytics_rollup_days)
      select exists (
        select 1 from last
        where not exists (
             select 1 from analytics_daily a
             where a.day = last.day and a.event_type = ${VISITORS_PER_DAY} and a.page_path = '')
           or not exists (
             select 1 from analytics_daily a
             where a.day = ${SQL_NO_DAY} and a.event_type = ${SESSIONS_THROUGH} and a.page_path = '' and a.events = last.day - ${SQL_EPOCH})
      ) as missing`),
  );
  return Boolean(row?.missing);
}

/**
 * Rolls up every ended day after the last rolled one into analytics_daily (with the reserved visitor
 * rows), analytics_daily_sessions and analytics_daily_referrers, in one transaction. Incremental:
 * usually nothing or one day to do. Instances take turns under an advisory lock and re-read the
 * watermark once they hold it, so a day is never rolled up twice (the last-seen counts are moved,
 * not just inserted). Returns the number of days rolled up.
 */
export async function rollUpAnalytics(db: Database, now: Date): Promise<number> {
  const lastComplete = addDays(saDay(new Date(now.getTime() - ROLLUP_GRACE_MS)), -1);
  const seen = await lastRolledDay(db);
  const backfill = seen !== null && (await needsVisitorRows(db));
  if (!backfill && seen !== null && addDays(seen, 1) > lastComplete) return 0;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ROLLUP_LOCK_KEY})`);
    if (backfill && (await needsVisitorRows(tx))) await rebuildVisitorRows(tx);
    const last = await lastRolledDay(tx);
    let first: string | null = last ? addDays(last, 1) : null;
    if (!first) {
      const [row] = rowsOf<{ day: string | null }>(
        await tx.execute(
          sql`select (min(created_at) at time zone 'Africa/Johannesburg')::date::text as day from analytics_events`,
        ),
      );
      first = row?.day ?? null;
      if (!first) return 0;
    }
    if (first > lastComplete) return 0;
    const from = sql`(${first}::date::timestamp at time zone 'Africa/Johannesburg')`;
    const until = sql`(${addDays(lastComplete, 1)}::date::timestamp at time zone 'Africa/Johannesburg')`;
    const days = sql`generate_series(${first}::date, ${lastComplete}::date, interval '1 day')`;
    await tx.execute(sql`
      insert into analytics_daily (day, event_type, page_path, events)
      select ${SQL_SA_DAY}, event_type, page_path, count(*)::int from analytics_events
      where created_at >= ${from} and created_at < ${until}
      group by 1, 2, 3
      on conflict do nothing`);
    await tx.execute(sql`
      insert into analytics_daily_sessions (day, session_id)
      select distinct ${SQL_SA_DAY}, session_id from analytics_events
      where created_at >= ${from} and created_at < ${until} and event_type = 'page_view'
      on conflict do nothing`);
    await tx.execute(sql`
      insert into analytics_daily (day, event_type, page_path, events)
      select d::date, ${VISITORS_PER_DAY}, '', (select count(*)::int from analytics_daily_sessions s where s.day = d::date)
      from ${days} d
      on conflict do nothing`);
    // Each session seen in these days now has its last page view on its latest day among them; its
    // earlier last day, if any (its SESSION_LAST_DAY row, looked up by key), loses it.
    await tx.execute(sql`
      with batch as (
        select session_id, max(day) as last_day from analytics_daily_sessions
        where day >= ${first}::date and day <= ${lastComplete}::date group by session_id
      ), earlier as (
        select ${SQL_EPOCH} + a.events as last_day from batch b
        join analytics_daily a on a.day = ${SQL_NO_DAY} and a.event_type = ${SESSION_LAST_DAY} and a.page_path = b.session_id
      ), moves as (
        select last_day as day, count(*)::int as delta from batch group by last_day
        union all
        select last_day, -count(*)::int from earlier group by last_day
      )
      insert into analytics_daily (day, event_type, page_path, events)
      select day, ${SESSIONS_LAST_SEEN}, '', sum(delta)::int from moves group by day
      on conflict (day, event_type, page_path) do update set events = analytics_daily.events + excluded.events`);
    await tx.execute(sql`
      insert into analytics_daily (day, event_type, page_path, events)
      select ${SQL_NO_DAY}, ${SESSION_LAST_DAY}, session_id, max(day) - ${SQL_EPOCH} from analytics_daily_sessions
      where day >= ${first}::date and day <= ${lastComplete}::date group by session_id
      on conflict (day, event_type, page_path) do update set events = greatest(analytics_daily.events, excluded.events)`);
    await tx.execute(sql`
      insert into analytics_daily (day, event_type, page_path, events)
      values (${SQL_NO_DAY}, ${SESSIONS_THROUGH}, '', ${lastComplete}::date - ${SQL_EPOCH})
      on conflict (day, event_type, page_path) do update set events = excluded.events`);
    await tx.execute(sql`
      insert into analytics_daily_referrers (day, referrer_host, sessions)
      select day, host, count(distinct session_id)::int from (
        select ${SQL_SA_DAY} as day, ${SQL_REFERRER_HOST} as host, session_id from analytics_events
        where created_at >= ${from} and created_at < ${until} and referrer is not null
      ) r where host is not null
      group by 1, 2
      on conflict do nothing`);
    await tx.execute(sql`
      insert into analytics_rollup_days (day, rolled_at)
      select d::date, ${now.toISOString()}::timestamptz from ${days} d
      on conflict do nothing`);
    return Math.round((Date.parse(lastComplete) - Date.parse(first)) / 86_400_000) + 1;
  });
}
