// npm run bench:dashboard: seeds 1,000,000 analytics events (a year of traffic, ~170,000 sessions)
// into a fresh in-memory PGlite, rolls up the ended days as the app does, then times the admin
// dashboard's data function (the /admin loader's work) for each period: median of several runs.
//   BENCH_EVENTS=200000 npm run bench:dashboard     a smaller run
//   BENCH_RUNS=9                                   more runs per period
import { sql } from "drizzle-orm";
import { loadDashboardData } from "~/analytics/dashboard.server";
import { PERIODS } from "~/analytics/days";
import { rollUpAnalytics } from "~/analytics/rollup.server";
import { openDatabase } from "~/db/client.server";
import { runMigrations } from "~/db/migrate.server";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const BUDGET_MS = 300;
const EVENTS_PER_SESSION = 6;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

async function main() {
  const now = new Date();
  const database = await openDatabase({});
  await runMigrations(database);
  const { db } = database;

  let started = process.hrtime.bigint();
  // Events spread evenly over the last 365 days up to now; each session's events are consecutive.
  // 60% page views over 12 paths, then product/event views and the checkout steps; 10% with a referrer.
  await db.execute(sql`
    insert into analytics_events (session_id, event_type, page_path, item_name, referrer, metadata, created_at)
    select
      'bench-' || (i / ${EVENTS_PER_SESSION}),
      case
        when i % 20 < 12 then 'page_view'
        when i % 20 < 15 then 'product_view'
        when i % 20 < 17 then 'event_view'
        when i % 20 = 17 then 'checkout_page_viewed'
        when i % 20 = 18 then 'checkout_attempted'
        else 'checkout_created_success'
      end,
      (array['/', '/styled-collections', '/events', '/about', '/contact', '/consultation-services', '/blog',
             '/events-gallery', '/product/candy-earrings', '/tickets/sip-style', '/checkout', '/membership/creative-bee'])[1 + (i * 7) % 12],
      null,
      case when i % 10 = 0 then (array['https://www.google.com/search', 'https://www.instagram.com/', 'https://www.facebook.com/',
             'https://www.linkedin.com/', 'https://duckduckgo.com/'])[1 + (i / 10) % 5] end,
      null,
      ${now.toISOString()}::timestamptz - ((${EVENTS} - i) * (interval '365 days' / ${EVENTS}))
    from generate_series(1, ${EVENTS}) as i`);
  const seedMs = ms(started);

  started = process.hrtime.bigint();
  const days = await rollUpAnalytics(db, now);
  const rollupMs = ms(started);
  await db.execute(sql`analyze`);

  const [{ n: sessions }] = (
    (await db.execute(sql`select count(distinct session_id)::int as n from analytics_events`)) as unknown as { rows: { n: number }[] }
  ).rows;
  console.log(`Seeded ${EVENTS.toLocaleString("en-ZA")} events (${sessions.toLocaleString("en-ZA")} sessions) in ${(seedMs / 1000).toFixed(1)} s;`);
  console.log(`rolled up ${days} days in ${(rollupMs / 1000).toFixed(1)} s (the app does this incrementally, a day at a time).`);
  console.log("");
  console.log(`Dashboard data (median of ${RUNS} runs, after one warm-up):`);

  let worst = 0;
  for (const { value, label } of PERIODS) {
    await loadDashboardData(db, { period: value, now });
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = process.hrtime.bigint();
      await loadDashboardData(db, { period: value, now });
      times.push(ms(start));
    }
    const m = median(times);
    worst = Math.max(worst, m);
    console.log(`  ${label.padEnd(14)} ${m.toFixed(1).padStart(7)} ms   (min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)})`);
  }
  console.log("");
  console.log(`Slowest period: ${worst.toFixed(1)} ms; budget ${BUDGET_MS} ms: ${worst < BUDGET_MS ? "OK" : "MISSED"}`);
  await database.close();
  if (worst >= BUDGET_MS) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
