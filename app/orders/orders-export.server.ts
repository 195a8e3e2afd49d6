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
  "Quantity",
  "Unit price (ZAR)",
  "Line fulfilment",
];

const rand = (cents: number) => (cents / 100).toFixed(2);

/** How a product or service line went (issue 39): its method once marked, "unfulfilled" before; a seat's is empty. */
const lineFulfilmentCell = (line: {
  catalogItemId: number | null;
  fulfilmentStatus: string;
  fulfilmentMethod: string | null;
}) =>
  line.catalogItemId === null
    ? ""
    : line.fulfilmentStatus === "fulfilled"
      ? (line.fulfilmentMethod ?? "fulfilled")
      : "unfulfilled";

/**
 * The header, then one row per order line (a bag's order has several) of each order the query finds,
 * oldest first, read a batch at a time. The order's amounts are on its first row only, so a column's
 * sum is what was taken.
 */
export async function* ordersCsvLines(db: Database, query: OrderListQuery): AsyncGenerator<string> {
  yield csvRow(ORDERS_CSV_HEADER);
  for await (const o of orderExportRows(db, query)) {
    const lines = o.lines.length ? o.lines : [null];
    for (const [index, line] of lines.entries()) {
      const first = index === 0;
      yield csvRow([
        o.createdAt,
        o.reference,
        o.customerFirstName,
        o.customerLastName,
        o.customerEmail,
        o.customerPhone,
        o.customerAddress,
        line && o.lines.length > 1 ? line.displayName : o.itemName,
        o.orderType,
        first ? rand(o.amountCents) : "",
        first ? rand(o.refundedCents) : "",
        o.status,
        o.needsAttention ? "yes" : "",
        o.fulfilmentStatus,
        o.fulfilledAt,
        o.completedAt,
        line ? line.quantity : "",
        line ? rand(line.unitPriceCents) : "",
        line ? lineFulfilmentCell(line) : "",
      ]);
    }
  }
}
