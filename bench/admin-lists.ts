// npm run bench:admin: seeds a busy shop (1,000 products, 100 events, 50,000 orders, 5,000 messages,
// 5,000 admin changes) into a fresh in-memory PGlite, then times each admin list's data function
// (its loader's work: the server time of the page) for its first page, a search and a filter:
// median of several runs. Writes bench/results/admin-lists.md and .json. Targets: every list under 300 ms
// (issue 19, at 10,000 orders and more), an order search under 100 ms at 50,000 orders (issue 20).
//   BENCH_RUNS=9 npm run bench:admin
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { listAudit } from "~/admin/audit.server";
import { loadDashboardData } from "~/analytics/dashboard.server";
import { listProductsForAdmin } from "~/catalog/product-admin.server";
import { listMessages } from "~/contact/messages-admin.server";
import { listEventsForAdmin } from "~/events/event-admin.server";
import { listOrdersForAdmin } from "~/orders/orders-admin.server";
import type { OrderListQuery } from "~/orders/order-list-query";
import { openDatabase } from "~/db/client.server";
import { runMigrations } from "~/db/migrate.server";
import { seedDatabase } from "~/db/seed.server";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const BUDGET_MS = 300;
const COUNTS = { products: 1_000, events: 100, orders: 50_000, messages: 5_000, changes: 5_000 };
const SEARCH_BUDGET_MS = 100;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

async function main() {
  const now = new Date();
  const database = await openDatabase({});
  await runMigrations(database);
  await seedDatabase(database.db);
  const { db } = database;
  await db.execute(sql`
    insert into catalog_items (slug, name, kind, price_cents, price_text, description, images, stock_quantity, sort_order)
    select 'bench-item-' || i, 'Bench Item ' || i, (array['product','solution','service'])[1 + i % 3], 10000 + i * 100, '',
           'An upcycled piece number ' || i, '["/images/products/candy-earrings-1.svg"]'::jsonb,
           case when i % 4 = 0 then null else i % 20 end, i
    from generate_series(1, ${COUNTS.products}) as i`);
  await db.execute(sql`
    insert into events (id, title, dates, starts_at, ends_at, focus, price_text, description, location, participants, sort_order)
    select 'bench-event-' || i, 'Bench Workshop ' || i, '',
           now() + (i - 50) * interval '3 days', now() + (i - 50) * interval '3 days' + interval '3 hours',
           'Upcycling', 'R 250.00', 'A workshop', 'Johannesburg', '8 seats', i
    from generate_series(1, ${COUNTS.events}) as i`);
  await db.execute(sql`
    insert into ticket_options (event_id, type, price_cents, description, capacity)
    select 'bench-event-' || i, 'Seat', 25000, 'One seat', 8 from generate_series(1, ${COUNTS.events}) as i`);
  await db.execute(sql`
    insert into orders (reference, order_type, item_name, amount_cents, status, customer_first_name, customer_last_name,
                        customer_email, customer_phone, customer_address, provider, idempotency_key, created_at)
    select 'HB-B' || i, 'product', 'Bench Item ' || (1 + i % ${COUNTS.products}), 10000 + i % 1000 * 100,
           (array['paid','pending','failed','cancelled','expired'])[1 + i % 5], 'Buyer', 'No ' || i, 'buyer' || i || '@example.test',
           '082 000 ' || lpad((i % 10000)::text, 4, '0'), 'Somewhere', 'simulator', 'bench-' || i, now() - i * interval '5 minutes'
    from generate_series(1, ${COUNTS.orders}) as i`);
  await db.execute(sql`
    insert into contact_submissions (first_name, last_name, email, subject, message, created_at)
    select 'Visitor', 'No ' || i, 'visitor' || i || '@example.test', 'Question ' || i, 'Do you have this in another size? ' || i,
           now() - i * interval '7 minutes'
    from generate_series(1, ${COUNTS.messages}) as i`);
  await db.execute(sql`
    insert into admin_audit_log (at, action, entity, entity_id, summary, before, after)
    select now() - i * interval '1 minute', 'product.update', 'product', (i % 1000)::text, 'Changed price of Bench Item ' || i,
           '{"priceCents": 10000}'::jsonb, '{"priceCents": 12000}'::jsonb
    from generate_series(1, ${COUNTS.changes}) as i`);
  await db.execute(sql`analyze`);

  const orderQuery = (q: Partial<OrderListQuery>): OrderListQuery => ({
    q: "",
    status: "",
    type: "",
    from: "",
    to: "",
    event: "",
    page: 1,
    ...q,
  });
  // [name, run, budget in ms]
  const cases: [string, () => Promise<unknown>, number?][] = [
    ["events", () => listEventsForAdmin(db, now)],
    ["orders, first page", () => listOrdersForAdmin(db, orderQuery({}))],
    ["orders, page 1,000", () => listOrdersForAdmin(db, orderQuery({ page: 1000 }))],
    [
      "orders, status and type filter",
      () => listOrdersForAdmin(db, orderQuery({ status: "paid", type: "product", page: 3 })),
    ],
    ["orders, date range", () => listOrdersForAdmin(db, orderQuery({ from: "2026-01-01", to: "2030-12-31" }))],
    ["order search: reference", () => listOrdersForAdmin(db, orderQuery({ q: "HB-B49999" })), SEARCH_BUDGET_MS],
    [
      "order search: email",
      () => listOrdersForAdmin(db, orderQuery({ q: "buyer4242@example.test" })),
      SEARCH_BUDGET_MS,
    ],
    ["order search: phone", () => listOrdersForAdmin(db, orderQuery({ q: "082 000 4242" })), SEARCH_BUDGET_MS],
    ["order search: name", () => listOrdersForAdmin(db, orderQuery({ q: "No 4242" })), SEARCH_BUDGET_MS],
    ["products, first page", () => listProductsForAdmin(db, { q: "", kind: "", page: 1 }, now)],
    ["products, page 30", () => listProductsForAdmin(db, { q: "", kind: "", page: 30 }, now)],
    ["products, search", () => listProductsForAdmin(db, { q: "item 99", kind: "", page: 1 }, now)],
    ["products, kind filter", () => listProductsForAdmin(db, { q: "", kind: "service", page: 2 }, now)],
    ["messages, first page", () => listMessages(db, { q: "", page: 1 })],
    ["messages, search", () => listMessages(db, { q: "visitor4999", page: 1 })],
    ["activity, first page", () => listAudit(db, null)],
    ["activity, older page", () => listAudit(db, 100)],
    ["dashboard (10,000 orders), 30 days", () => loadDashboardData(db, { period: "30d", now })],
  ];
  const rows: { list: string; medianMs: number; maxMs: number; budgetMs: number; pass: boolean }[] = [];
  for (const [name, run, budget = BUDGET_MS] of cases) {
    await run();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = process.hrtime.bigint();
      await run();
      times.push(ms(start));
    }
    const m = median(times);
    rows.push({
      list: name,
      medianMs: Number(m.toFixed(1)),
      maxMs: Number(Math.max(...times).toFixed(1)),
      budgetMs: budget,
      pass: m < budget,
    });
  }
  await database.close();

  const table = [
    `# Admin lists: server time with ${Object.entries(COUNTS)
      .map(([k, v]) => `${v.toLocaleString("en-US")} ${k}`)
      .join(", ")}`,
    "",
    `Measured ${now.toISOString()} on PGlite in memory, median of ${RUNS} runs after one warm-up (\`npm run bench:admin\`).`,
    `Targets: every list under ${BUDGET_MS} ms; an order search under ${SEARCH_BUDGET_MS} ms.`,
    "",
    "| list | median ms | max ms | target ms | result |",
    "| --- | --- | --- | --- | --- |",
    ...rows.map((r) => `| ${r.list} | ${r.medianMs} | ${r.maxMs} | ${r.budgetMs} | ${r.pass ? "pass" : "FAIL"} |`),
    "",
  ].join("\n");
  const dir = path.join("bench", "results");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "admin-lists.md"), table);
  fs.writeFileSync(
    path.join(dir, "admin-lists.json"),
    JSON.stringify({ measuredAt: now.toISOString(), counts: COUNTS, rows }, null, 2),
  );
  console.log(table);
  const failed = rows.filter((r) => !r.pass).length;
  console.log(`admin lists: ${rows.length - failed} passed, ${failed} failed`);
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
