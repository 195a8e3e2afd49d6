import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { bags, catalogItems, events, orderLines, ticketOptions } from "~/db/schema";
import type { OrderRow } from "./orders.server";

/**
 * The checkout query that offers an order's item again, as the shop's own buttons would open it
 * (type and item; the buyer's details are restored in the browser, never put in a URL). Built from
 * the order's line, so a renamed product or event still leads to the right item.
 */
export async function retryCheckoutQuery(db: Database, order: OrderRow): Promise<string | null> {
  // A bag's checkout is tried again from the bag, which keeps its lines until an order of it is paid.
  const [bag] = await db.select({ id: bags.id }).from(bags).where(eq(bags.checkoutOrderId, order.id)).limit(1);
  if (bag) return `?${new URLSearchParams({ bag: "1", retry: "1" })}`;
  const [line] = await db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).limit(1);
  if (!line) return null;
  let item: string | null = null;
  if (line.catalogItemId) {
    const [row] = await db
      .select({ name: catalogItems.name })
      .from(catalogItems)
      .where(eq(catalogItems.id, line.catalogItemId));
    item = row?.name ?? null;
  } else if (line.membershipSlug) {
    item = line.membershipSlug;
  } else if (line.ticketOptionId) {
    const [row] = await db
      .select({ title: events.title, type: ticketOptions.type })
      .from(ticketOptions)
      .innerJoin(events, eq(events.id, ticketOptions.eventId))
      .where(eq(ticketOptions.id, line.ticketOptionId));
    if (row) item = order.orderType === "workshop" ? row.title : `${row.title} - ${row.type}`;
  }
  return item ? `?${new URLSearchParams({ type: order.orderType, item, retry: "1" })}` : null;
}
