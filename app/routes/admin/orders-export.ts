import { csvRow } from "~/admin/csv";
import { csvResponse } from "~/admin/csv-response.server";
import { requireAdmin } from "~/admin/session.server";
import { readOrderQuery } from "~/orders/order-list-query";
import { orderExportRows } from "~/orders/orders-admin.server";
import type { Route } from "./+types/orders-export";

/** GET /admin/orders/export?…: the orders list as filtered, as CSV (401 without a session). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context, { mode: "api" });
  const query = readOrderQuery(new URL(request.url).searchParams);
  const header = ["Date", "Reference", "First name", "Last name", "Email", "Phone", "Address", "Item", "Type", "Amount (ZAR)", "Refunded (ZAR)", "Status", "Needs attention", "Fulfilment", "Fulfilled"];
  async function* lines() {
    yield csvRow(header);
    for await (const o of orderExportRows(context.db, query)) {
      yield csvRow([
        o.createdAt,
        o.reference,
        o.customerFirstName,
        o.customerLastName,
        o.customerEmail,
        o.customerPhone,
        o.customerAddress,
        o.itemName,
        o.orderType,
        (o.amountCents / 100).toFixed(2),
        (o.refundedCents / 100).toFixed(2),
        o.status,
        o.needsAttention ? "yes" : "",
        o.fulfilmentStatus,
        o.fulfilledAt,
      ]);
    }
  }
  return csvResponse(lines(), `honey-orders-${context.clock.now().toISOString().slice(0, 10)}.csv`);
}
