import { csvRow } from "~/admin/csv";
import { requireAdmin } from "~/admin/session.server";
import { readOrderQuery } from "~/orders/order-list-query";
import { orderExportRows } from "~/orders/orders-admin.server";
import type { Route } from "./+types/orders-export";

/** GET /admin/orders/export?…: the orders list as filtered, as CSV (401 without a session). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context, { mode: "api" });
  const rows = orderExportRows(context.db, readOrderQuery(new URL(request.url).searchParams));
  const encoder = new TextEncoder();
  const header = ["Date", "Reference", "First name", "Last name", "Email", "Phone", "Address", "Item", "Type", "Amount (ZAR)", "Refunded (ZAR)", "Status", "Needs attention", "Fulfilment", "Fulfilled"];
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // Excel reads UTF-8 only with a byte-order mark.
      controller.enqueue(encoder.encode(`\uFEFF${csvRow(header)}`));
    },
    async pull(controller) {
      let chunk = "";
      for (let i = 0; i < 500; i++) {
        const next = await rows.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        const o = next.value;
        chunk += csvRow([
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
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  const day = context.clock.now().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="honey-orders-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
