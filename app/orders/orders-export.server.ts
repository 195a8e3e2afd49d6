import { csvRow } from "~/admin/csv";
import type { Database } from "~/db/client.server";
import type { OrderListQuery } from "./order-list-query";
import { orderExportRows } from "./orders-admin.server";

/**
 * The one orders CSV (decision 110): the orders list's filters, and every column either of the two
 * exports it replaces had (the dashboard's "Customer" is the buyer's first and last names).
 */
export const ORDERS_CSV_HEADER = [
  "Date",
  "Reference",
  "First name",
  "Last name",
  "Email",
  "Phone",
  "Address",
  "Item",
  "Type",
  "Amount (ZAR)",
  "Refunded (ZAR)",
  "Status",
  "Needs attention",
  "Fulfilment",
  "Fulfilled",
  "Completed",
];

/** The header, then one line per order the query finds, oldest first, read a batch at a time. */
export async function* ordersCsvLines(db: Database, query: OrderListQuery): AsyncGenerator<string> {
  yield csvRow(ORDERS_CSV_HEADER);
  for await (const o of orderExportRows(db, query)) {
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
      o.completedAt,
    ]);
  }
}
