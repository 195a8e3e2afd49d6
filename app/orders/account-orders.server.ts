import { and, desc, inArray, sql } from "drizzle-orm";
import { saDay } from "~/analytics/days";
import type { Database } from "~/db/client.server";
import { orders } from "~/db/schema";
import { buyerFulfilmentWords } from "./line-fulfilment";
import { lineCountsOfOrders } from "./line-fulfilment.server";

/**
 * A signed-in member's paid shop orders under her email (products and services), newest first, each
 * with whether it is on its way (issue 39: every line is sent on its own). Her email was proven by
 * her sign-in link, so the orders it placed are hers to see.
 */
export async function accountOrders(db: Database, email: string, limit = 10) {
  const rows = await db
    .select({
      id: orders.id,
      reference: orders.reference,
      itemName: orders.itemName,
      orderType: orders.orderType,
      fulfilmentStatus: orders.fulfilmentStatus,
      fulfilmentMethod: orders.fulfilmentMethod,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(
      and(
        sql`lower(${orders.customerEmail}) = ${email.toLowerCase()}`,
        inArray(orders.status, ["paid", "partially_refunded"]),
        inArray(orders.orderType, ["product", "service"]),
      ),
    )
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
  const counts = await lineCountsOfOrders(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const fulfilled = r.fulfilmentStatus === "fulfilled";
    return {
      reference: r.reference,
      itemName: r.itemName,
      placedOn: saDay(r.createdAt),
      fulfilment:
        buyerFulfilmentWords({
          orderType: r.orderType,
          fulfilmentMethod: r.fulfilmentMethod,
          lines: counts.get(r.id) ?? { sent: fulfilled ? 1 : 0, waiting: fulfilled ? 0 : 1, refunded: 0 },
        }) ?? "",
    };
  });
}

export type AccountOrder = Awaited<ReturnType<typeof accountOrders>>[number];
