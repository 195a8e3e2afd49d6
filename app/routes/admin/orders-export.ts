import { csvResponse } from "~/admin/csv-response.server";
import { readOrderQuery } from "~/orders/order-list-query";
import { ordersCsvLines } from "~/orders/orders-export.server";
import type { Route } from "./+types/orders-export";

/** GET /admin/orders/export?…: the orders list as filtered, as CSV (401 without a session). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = readOrderQuery(new URL(request.url).searchParams);
  return csvResponse(
    ordersCsvLines(context.db, query),
    `honey-orders-${context.clock.now().toISOString().slice(0, 10)}.csv`,
  );
}
