import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { recordAudit } from "~/admin/audit.server";
import type { AppContext } from "~/context.server";
import type { Tx } from "~/db/client.server";
import { catalogItems, orderLines, orders, refundLines, refunds } from "~/db/schema";
import { shopContact } from "~/email/shop-contact.server";
import { FULFILMENT_METHODS, type FulfilmentMethod } from "./fulfilment-methods";
import { lineCounts, lineFulfilment, type LineCounts, type LineFulfilment } from "./line-fulfilment";
import { unitsReturned } from "./line-refunds.server";
import { queueOrderEmail } from "./order-email-queue.server";
import { fulfilledEmail } from "./order-emails.server";
import { recordOrderEvent } from "./order-history.server";

type Context = Pick<AppContext, "db" | "config" | "clock">;
type Reader = Pick<Tx, "select">;

/** An order's lines as the owner marks them: what each is, where it stands, and how it went. */
export interface OwnerLine {
  id: number;
  name: string;
  quantity: number;
  kind: "product" | "service" | null;
  state: LineFulfilment;
  method: string | null;
  fulfilledAt: Date | null;
}

/** Every line of one order, in the order bought, with its state (refunds not failed count, decision 124). */
export async function ownerLines(tx: Reader, orderId: string): Promise<OwnerLine[]> {
  const [rows, returned] = await Promise.all([
    tx
      .select({ line: orderLines, kind: catalogItems.kind })
      .from(orderLines)
      .leftJoin(catalogItems, eq(catalogItems.id, orderLines.catalogItemId))
      .where(eq(orderLines.orderId, orderId))
      .orderBy(asc(orderLines.id)),
    unitsReturned(tx, orderId),
  ]);
  return rows.map(({ line, kind }) => ({
    id: line.id,
    name: line.displayName,
    quantity: line.quantity,
    kind: kind === null ? null : kind === "product" ? "product" : "service",
    state: lineFulfilment({ ...line, unitsRefunded: returned.get(line.id)?.units ?? 0 }),
    method: line.fulfilmentMethod,
    fulfilledAt: line.fulfilledAt,
  }));
}

/** Sent, waiting and refunded-away lines of many orders (the owner's list, /account), in two queries. */
export async function lineCountsOfOrders(db: Reader, orderIds: string[]): Promise<Map<string, LineCounts>> {
  const byOrder = new Map<string, LineCounts>();
  if (!orderIds.length) return byOrder;
  const [lines, returned] = await Promise.all([
    db
      .select({
        id: orderLines.id,
        orderId: orderLines.orderId,
        catalogItemId: orderLines.catalogItemId,
        quantity: orderLines.quantity,
        fulfilmentStatus: orderLines.fulfilmentStatus,
        fulfilmentMethod: orderLines.fulfilmentMethod,
      })
      .from(orderLines)
      .where(inArray(orderLines.orderId, orderIds))
      .orderBy(asc(orderLines.id)),
    db
      .select({ lineId: refundLines.orderLineId, units: sql<number>`sum(${refundLines.units})::int` })
      .from(refundLines)
      .innerJoin(refunds, eq(refunds.id, refundLines.refundId))
      .where(and(inArray(refunds.orderId, orderIds), ne(refunds.status, "failed")))
      .groupBy(refundLines.orderLineId),
  ]);
  const refunded = new Map(returned.map((r) => [r.lineId, Number(r.units)]));
  const grouped = new Map<string, typeof lines>();
  for (const line of lines) grouped.set(line.orderId, [...(grouped.get(line.orderId) ?? []), line]);
  for (const [orderId, group] of grouped)
    byOrder.set(orderId, lineCounts(group.map((l) => ({ ...l, unitsRefunded: refunded.get(l.id) ?? 0 }))));
  return byOrder;
}

/**
 * An order still has a line to post or hand over: a product or service line not marked, with units not
 * refunded (the orders filter and the dashboard's list). An order without lines reads its own status.
 */
export const hasWaitingLine = sql`(not exists (select 1 from ${orderLines} where ${orderLines.orderId} = ${orders.id})
  or exists (select 1 from ${orderLines} where ${orderLines.orderId} = ${orders.id}
    and ${orderLines.catalogItemId} is not null and ${orderLines.fulfilmentStatus} = 'unfulfilled'
    and ${orderLines.quantity} > coalesce((select sum(${refundLines.units}) from ${refundLines}
      join ${refunds} on ${refunds.id} = ${refundLines.refundId}
      where ${refundLines.orderLineId} = ${orderLines.id} and ${refunds.status} <> 'failed'), 0)))`;

export type MarkOutcome = "fulfilled" | "already" | "not-paid" | "unknown-line" | "choose-method";

const methodLabel = (method: string) => FULFILMENT_METHODS.find((m) => m.value === method)?.label ?? method;
const lineName = (line: OwnerLine) => (line.quantity > 1 ? `${line.name} × ${line.quantity}` : line.name);

/**
 * Marks some waiting lines of a paid order (or all of them) posted, handed over or done, in one
 * transaction under the order's lock: a service line is always "service done", a product line takes
 * the method chosen. The buyer gets one email naming the lines; once nothing waits, the order reads
 * fulfilled. A second press finds nothing waiting and changes nothing.
 */
export async function markLines(
  context: Context,
  orderId: string,
  ask: { lineIds: number[] | "all"; method: string },
): Promise<MarkOutcome> {
  const now = context.clock.now();
  return context.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order || !["paid", "partially_refunded"].includes(order.status)) return "not-paid" as const;
    const lines = await ownerLines(tx, orderId);
    const known = new Set(lines.filter((l) => l.state !== "none").map((l) => l.id));
    if (ask.lineIds !== "all" && (!ask.lineIds.length || ask.lineIds.some((id) => !known.has(id))))
      return "unknown-line" as const;
    const chosen = lines.filter((l) => l.state === "waiting" && (ask.lineIds === "all" || ask.lineIds.includes(l.id)));
    if (!chosen.length && !(lines.length === 0 && order.fulfilmentStatus === "unfulfilled")) return "already" as const;
    const products = chosen.some((l) => l.kind === "product") || lines.length === 0;
    if (products && ask.method !== "posted" && ask.method !== "collected") return "choose-method" as const;
    const methodOf = (line: OwnerLine): FulfilmentMethod =>
      line.kind === "service" ? "service done" : (ask.method as FulfilmentMethod);
    for (const method of new Set(chosen.map(methodOf))) {
      await tx
        .update(orderLines)
        .set({ fulfilmentStatus: "fulfilled", fulfilmentMethod: method, fulfilledAt: now })
        .where(
          inArray(
            orderLines.id,
            chosen.filter((l) => methodOf(l) === method).map((l) => l.id),
          ),
        );
    }
    const method: FulfilmentMethod = products ? (ask.method as FulfilmentMethod) : "service done";
    const label = methodLabel(method).toLowerCase();
    const stillWaiting = lines.some((l) => l.state === "waiting" && !chosen.includes(l));
    const everyLine = chosen.length === lines.filter((l) => l.state === "waiting" || l.state === "sent").length;
    if (!stillWaiting) {
      await tx
        .update(orders)
        .set({ fulfilmentStatus: "fulfilled", fulfilmentMethod: method, fulfilledAt: now, updatedAt: now })
        .where(and(eq(orders.id, orderId), eq(orders.fulfilmentStatus, "unfulfilled")));
    }
    // An order marked in one press reads, and is emailed, as it always was; a part names its lines.
    const names = everyLine ? [] : chosen.map(lineName);
    const what = names.length ? `${names.join(", ")}` : "";
    await recordOrderEvent(
      tx,
      orderId,
      "fulfilled",
      what ? `Marked ${label}: ${what}` : `Marked fulfilled: ${label}`,
      now,
      what ? { lines: chosen.map((l) => l.id) } : undefined,
    );
    await queueOrderEmail(
      tx,
      fulfilledEmail(
        order,
        method,
        await shopContact(tx),
        names.length ? { names, lineIds: chosen.map((l) => l.id) } : undefined,
      ),
      now,
    );
    await recordAudit(
      tx,
      {
        action: "order.fulfil",
        entity: "order",
        entityId: order.id,
        summary: what
          ? `Marked ${what} of ${order.reference} ${label}`
          : `Marked ${order.reference} fulfilled (${label})`,
        after: { fulfilmentMethod: method },
      },
      now,
    );
    return "fulfilled" as const;
  });
}
