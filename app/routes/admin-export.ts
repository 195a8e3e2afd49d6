import { and, asc, gt, gte, sql } from "drizzle-orm";
import { data } from "react-router";
import { csvRow } from "~/admin/csv";
import { csvResponse } from "~/admin/csv-response.server";
import { requireAdmin } from "~/admin/session.server";
import { parsePeriod, periodStartDay, saDayStart } from "~/analytics/days";
import type { Database } from "~/db/client.server";
import { analyticsEvents, contactSubmissions, orders } from "~/db/schema";
import type { Route } from "./+types/admin-export";

const BATCH = 2000;
const KINDS = ["contacts", "orders", "events"] as const;
type Kind = (typeof KINDS)[number];

/** Rows in id order, one batch at a time, so an export of a million events never sits in memory. */
async function* exportRows(db: Database, kind: Kind, since: Date | null): AsyncGenerator<string> {
  if (kind === "contacts") {
    yield csvRow(["Date", "First name", "Last name", "Email", "Subject", "Message"]);
    let after = 0;
    for (;;) {
      const rows = await db
        .select()
        .from(contactSubmissions)
        .where(and(gt(contactSubmissions.id, after), since ? gte(contactSubmissions.createdAt, since) : undefined))
        .orderBy(asc(contactSubmissions.id))
        .limit(BATCH);
      for (const r of rows) yield csvRow([r.createdAt, r.firstName, r.lastName, r.email, r.subject, r.message]);
      if (rows.length < BATCH) return;
      after = rows[rows.length - 1].id;
    }
  }
  if (kind === "orders") {
    yield csvRow(["Date", "Reference", "Customer", "Email", "Item", "Amount (ZAR)", "Status", "Type", "Completed"]);
    let after = new Date(0);
    let afterId = "";
    for (;;) {
      const rows = await db
        .select()
        .from(orders)
        .where(
          and(
            sql`(${orders.createdAt}, ${orders.id}) > (${after.toISOString()}::timestamptz, ${afterId || "00000000-0000-0000-0000-000000000000"}::uuid)`,
            since ? gte(orders.createdAt, since) : undefined,
          ),
        )
        .orderBy(asc(orders.createdAt), asc(orders.id))
        .limit(BATCH);
      for (const o of rows) {
        yield csvRow([
          o.createdAt,
          o.reference,
          `${o.customerFirstName} ${o.customerLastName}`,
          o.customerEmail,
          o.itemName,
          (o.amountCents / 100).toFixed(2),
          o.status,
          o.orderType,
          o.completedAt,
        ]);
      }
      if (rows.length < BATCH) return;
      after = rows[rows.length - 1].createdAt;
      afterId = rows[rows.length - 1].id;
    }
  }
  yield csvRow(["Date", "Session", "Event type", "Page", "Item", "Referrer", "Metadata"]);
  let after = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(analyticsEvents)
      .where(and(gt(analyticsEvents.id, after), since ? gte(analyticsEvents.createdAt, since) : undefined))
      .orderBy(asc(analyticsEvents.id))
      .limit(BATCH);
    for (const e of rows) {
      yield csvRow([e.createdAt, e.sessionId, e.eventType, e.pagePath, e.itemName, e.referrer, e.metadata ? JSON.stringify(e.metadata) : ""]);
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1].id;
  }
}

/** GET /admin/export/{contacts|orders|events}?period=…: a CSV download for a signed-in admin; 401 otherwise. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAdmin(request, context, { mode: "api" });
  const kind = params.kind as Kind;
  if (!KINDS.includes(kind)) throw data({ error: "Unknown export" }, { status: 404 });
  const now = context.clock.now();
  const period = parsePeriod(new URL(request.url).searchParams.get("period"));
  const fromDay = periodStartDay(period, now);
  const since = fromDay ? saDayStart(fromDay) : null;
  const day = now.toISOString().slice(0, 10);
  return csvResponse(exportRows(context.db, kind, since), `honey-${kind}-${period}-${day}.csv`);
}
