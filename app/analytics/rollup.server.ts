import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { addDays, saDay } from "./days";
import { rowsOf } from "./ingest.server";

/** A day is rolled up only once it ended this long ago, so late writes from other instances land first. */
export const ROLLUP_GRACE_MS = 10 * 60_000;

/** The SA day of an event, and the host of a referrer URL, as SQL. */
export const SQL_SA_DAY = sql.raw(`(created_at at time zone 'Africa/Johannesburg')::date`);
export const SQL_REFERRER_HOST = sql.raw(`lower(substring(referrer from '^[a-zA-Z][a-zA-Z0-9+.-]*://([^/:?#]+)'))`);

/** The last day rolled up, or null when none is. */
export async function lastRolledDay(db: Database): Promise<string | null> {
  const [row] = rowsOf<{ day: string | null }>(await db.execute(sql`select max(day)::text as day from analytics_rollup_days`));
  return row?.day ?? null;
}

/**
 * Rolls up every ended day after the last rolled one into analytics_daily, analytics_daily_sessions
 * and analytics_daily_referrers, in one transaction. Incremental: usually nothing or one day to do.
 * Idempotent (ON CONFLICT DO NOTHING), so two instances running it at once agree.
 * Returns the number of days rolled up.
 */
export async function rollUpAnalytics(db: Database, now: Date): Promise<number> {
  const lastComplete = addDays(saDay(new Date(now.getTime() - ROLLUP_GRACE_MS)), -1);
  const last = await lastRolledDay(db);
  let first: string | null = last ? addDays(last, 1) : null;
  if (!first) {
    const [row] = rowsOf<{ day: string | null }>(
      await db.execute(sql`select (min(created_at) at time zone 'Africa/Johannesburg')::date::text as day from analytics_events`),
    );
    first = row?.day ?? null;
    if (!first) return 0;
  }
  if (first > lastComplete) return 0;
  const from = sql`(${first}::date::timestamp at time zone 'Africa/Johannesburg')`;
  const until = sql`(${addDays(lastComplete, 1)}::date::timestamp at time zone 'Africa/Johannesburg')`;
  await db.transaction(async (tx) => {
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
      insert into analytics_daily_referrers (day, referrer_host, sessions)
      select day, host, count(distinct session_id)::int from (
        select ${SQL_SA_DAY} as day, ${SQL_REFERRER_HOST} as host, session_id from analytics_events
        where created_at >= ${from} and created_at < ${until} and referrer is not null
      ) r where host is not null
      group by 1, 2
      on conflict do nothing`);
    await tx.execute(sql`
      insert into analytics_rollup_days (day, rolled_at)
      select d::date, ${now.toISOString()}::timestamptz from generate_series(${first}::date, ${lastComplete}::date, interval '1 day') d
      on conflict do nothing`);
  });
  return Math.round((Date.parse(lastComplete) - Date.parse(first)) / 86_400_000) + 1;
}
