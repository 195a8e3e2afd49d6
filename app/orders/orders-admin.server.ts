import { and, asc, count, desc, eq, exists, gte, inArray, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { addDays, saDayStart } from "~/analytics/days";
import type { Database } from "~/db/client.server";
import { emailOutbox, events, orderLines, orders, refunds, ticketOptions } from "~/db/schema";
import { hasWaitingLine, lineCountsOfOrders } from "./line-fulfilment.server";
import { orderHistory } from "./order-history.server";
import { ORDER_STATUSES, ORDER_TYPES, type OrderListQuery } from "./order-list-query";

export const ORDERS_PAGE_SIZE = 25;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const like = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

const refundPending = exists(
  sql`(select 1 from ${refunds} where ${refunds.orderId} = ${orders.id} and ${refunds.status} in ('requested', 'pending'))`,
);

/** When the last refund went through: only refunded orders ask, so other rows cost nothing. */
const refundedAt = sql<Date | null>`case when ${orders.status} in ('refunded', 'partially_refunded') then
  (select max(coalesce(${refunds.completedAt}, ${refunds.createdAt})) from ${refunds}
    where ${refunds.orderId} = ${orders.id} and ${refunds.status} = 'succeeded') end`;

/**
 * A paid physical product the owner has still to post or hand over (the dashboard's list and the orders
 * filter). One that needs attention had no unit left: it is refunded, not posted, so it is not here.
 */
export const toPost = and(
  eq(orders.orderType, "product"),
  inArray(orders.status, ["paid", "partially_refunded"]),
  eq(orders.fulfilmentStatus, "unfulfilled"),
  eq(orders.needsAttention, false),
  hasWaitingLine,
)!;

/**
 * The search box: a reference is looked up by its index, an email address by the lower(email) prefix
 * index, anything else by name, email or phone (digits only, so "082 555" finds "+27 82 555 0101").
 */
function searchCondition(raw: string): SQL | undefined {
  const q = raw.trim().slice(0, 100);
  if (!q) return undefined;
  if (/^HB-[A-Z0-9]{4,}$/i.test(q)) return eq(orders.reference, q.toUpperCase());
  if (q.includes("@")) return sql`lower(${orders.customerEmail}) like ${`${like(q.toLowerCase())}%`}`;
  // Name, email or phone: one stored column (orders.customer_search) holds them, the phone as digits.
  const words = sql`${orders.customerSearch} like ${`%${like(q.toLowerCase())}%`}`;
  const digits = q.replace(/\D/g, "").replace(/^0/, "");
  return digits.length >= 3 ? or(words, sql`${orders.customerSearch} like ${`%${digits}%`}`) : words;
}

export function orderListConditions(query: OrderListQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [searchCondition(query.q)];
  if (query.status === "attention") conditions.push(eq(orders.needsAttention, true));
  else if (query.status === "to-post") conditions.push(toPost);
  else if (query.status === "refund-pending") conditions.push(refundPending);
  else if ((ORDER_STATUSES as readonly string[]).includes(query.status))
    conditions.push(eq(orders.status, query.status as (typeof ORDER_STATUSES)[number]));
  // Checkouts nobody paid for are clutter by default (and one client could make many): "Expired" finds them.
  else conditions.push(ne(orders.status, "expired"));
  if ((ORDER_TYPES as readonly string[]).includes(query.type)) conditions.push(eq(orders.orderType, query.type));
  if (DAY.test(query.from)) conditions.push(gte(orders.createdAt, saDayStart(query.from)));
  if (DAY.test(query.to)) conditions.push(lt(orders.createdAt, saDayStart(addDays(query.to, 1))));
  if (query.event && query.event.length <= 200) {
    conditions.push(
      exists(
        sql`(select 1 from ${orderLines} join ${ticketOptions} on ${ticketOptions.id} = ${orderLines.ticketOptionId}
             where ${orderLines.orderId} = ${orders.id} and ${ticketOptions.eventId} = ${query.event})`,
      ),
    );
  }
  return and(...conditions);
}

/** Every order, newest first, a page at a time, with what the owner needs to act on at a glance. */
export async function listOrdersForAdmin(db: Database, query: OrderListQuery) {
  const where = orderListConditions(query);
  const [{ total }] = await db.select({ total: count() }).from(orders).where(where);
  const pages = Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE));
  const page = Math.min(Math.max(1, query.page), pages);
  const rows = await db
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      reference: orders.reference,
      firstName: orders.customerFirstName,
      lastName: orders.customerLastName,
      email: orders.customerEmail,
      itemName: orders.itemName,
      orderType: orders.orderType,
      amountCents: orders.amountCents,
      refundedCents: orders.refundedCents,
      refundedAt: sql<string | null>`${refundedAt}`,
      status: orders.status,
      fulfilment: orders.fulfilmentStatus,
      fulfilmentMethod: orders.fulfilmentMethod,
      needsAttention: orders.needsAttention,
      refundPending: sql<boolean>`${refundPending}`,
    })
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(ORDERS_PAGE_SIZE)
    .offset((page - 1) * ORDERS_PAGE_SIZE);
  const ids = rows.map((r) => r.id);
  const [lines, counts] = await Promise.all([linesOfOrders(db, ids), lineCountsOfOrders(db, ids)]);
  return {
    total,
    page,
    pages,
    orders: rows.map((r) => ({
      ...r,
      // A bag's order reads "3 items: Candy Earrings" in the list; its page lists every line.
      itemName: listedItemName(r.itemName, lines.get(r.id) ?? []),
      // Each product line is marked on its own (issue 39): "2 of 3 items sent".
      lines: counts.get(r.id),
      createdAt: r.createdAt.toISOString(),
      refundedAt: r.refundedAt ? new Date(r.refundedAt).toISOString() : null,
    })),
  };
}

type OrderLineRow = typeof orderLines.$inferSelect;

/** The lines of some orders, by order, in the order they were bought. */
async function linesOfOrders(db: Database, orderIds: string[]): Promise<Map<string, OrderLineRow[]>> {
  const byOrder = new Map<string, OrderLineRow[]>();
  if (!orderIds.length) return byOrder;
  const rows = await db
    .select()
    .from(orderLines)
    .where(inArray(orderLines.orderId, orderIds))
    .orderBy(asc(orderLines.orderId), asc(orderLines.id));
  for (const row of rows) byOrder.set(row.orderId, [...(byOrder.get(row.orderId) ?? []), row]);
  return byOrder;
}

/** The list's Item: an order of one line as it was named; one of several lines by its units and first line. */
export function listedItemName(itemName: string, lines: Pick<OrderLineRow, "displayName" | "quantity">[]): string {
  if (lines.length < 2) return itemName;
  const units = lines.reduce((n, l) => n + l.quantity, 0);
  return `${units} items: ${lines[0]!.displayName}`;
}

/** Rows for the CSV export of a filtered list, in batches, oldest first: each order with its lines. */
export async function* orderExportRows(db: Database, query: OrderListQuery, batch = 2000) {
  const where = orderListConditions(query);
  let offset = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(orders)
      .where(where)
      .orderBy(asc(orders.createdAt), asc(orders.id))
      .limit(batch)
      .offset(offset);
    const lines = await linesOfOrders(
      db,
      rows.map((r) => r.id),
    );
    for (const row of rows) yield { ...row, lines: lines.get(row.id) ?? [] };
    if (rows.length < batch) return;
    offset += batch;
  }
}

/** One order with everything its page shows. */
export async function findOrderForAdmin(db: Database, id: string) {
  const [order] = await db.select().from(orders).where(eq(orders.id, id));
  if (!order) return null;
  const [lines, refundRows, history, emails] = await Promise.all([
    db.select().from(orderLines).where(eq(orderLines.orderId, id)),
    db.select().from(refunds).where(eq(refunds.orderId, id)).orderBy(asc(refunds.createdAt)),
    orderHistory(db, id),
    db
      .select({
        id: emailOutbox.id,
        to: emailOutbox.toAddress,
        subject: emailOutbox.subject,
        status: emailOutbox.status,
        createdAt: emailOutbox.createdAt,
        sentAt: emailOutbox.sentAt,
      })
      .from(emailOutbox)
      .where(eq(emailOutbox.orderId, id))
      .orderBy(asc(emailOutbox.id)),
  ]);
  return { order, lines, refunds: refundRows, history, emails };
}

/** Orders the dashboard flags: paid, but waiting for the owner. */
export async function ordersNeedingAttention(db: Database, limit = 5) {
  return db
    .select({ id: orders.id, reference: orders.reference, itemName: orders.itemName, reason: orders.attentionReason })
    .from(orders)
    .where(and(eq(orders.needsAttention, true), inArray(orders.status, ["paid", "partially_refunded"])))
    .orderBy(desc(orders.createdAt))
    .limit(limit);
}

/** Events to filter orders by, newest first. */
export async function listEventChoices(db: Database) {
  return db
    .select({ id: events.id, title: events.title })
    .from(events)
    .orderBy(sql`${events.startsAt} desc nulls last`, asc(events.title));
}
