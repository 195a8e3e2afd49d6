import { and, asc, gt, gte } from "drizzle-orm";
import { data } from "react-router";
import { csvRow } from "~/admin/csv";
import { csvResponse } from "~/admin/csv-response.server";
import { parsePeriod, periodStartDay, saDayStart } from "~/analytics/days";
import { readOrderQuery } from "~/orders/order-list-query";
import { ordersCsvLines } from "~/orders/orders-export.server";
import type { Database } from "~/db/client.server";
import { analyticsEvents, contactSubmissions } from "~/db/schema";
import type { Route } from "./+types/admin-export";

const BATCH = 2000;
const KINDS = ["contacts", "orders", "events"] as const;
type Kind = (typeof KINDS)[number];

/** Rows in id order, one batch at a time, so an export of a million events never sits in memory. */
async function* exportRows(db: Database, kind: Exclude<Kind, "orders">, since: Date | null): AsyncGenerator<string> {
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
      yield csvRow([
        e.createdAt,
        e.sessionId,
        e.eventType,
        e.pagePath,
        e.itemName,
        e.referrer,
        e.metadata ? JSON.stringify(e.metadata) : "",
      ]);
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1].id;
  }
}

/** GET /admin/export/{contacts|orders|events}?period=…: a CSV download for a signed-in admin; 401 otherwise. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const kind = params.kind as Kind;
  if (!KINDS.includes(kind)) throw data({ error: "Unknown export" }, { status: 404 });
  const now = context.clock.now();
  const period = parsePeriod(new URL(request.url).searchParams.get("period"));
  const fromDay = periodStartDay(period, now);
  const since = fromDay ? saDayStart(fromDay) : null;
  const day = now.toISOString().slice(0, 10);
  const filename = `honey-${kind}-${period}-${day}.csv`;
  // The dashboard's orders download is the orders page's one export, from the period's first day (decision 110).
  if (kind === "orders")
    return csvResponse(
      ordersCsvLines(context.db, { ...readOrderQuery(new URLSearchParams()), from: fromDay ?? "" }),
      filename,
    );
  return csvResponse(exportRows(context.db, kind, since), filename);
}
