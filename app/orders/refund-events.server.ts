import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { orders, refunds } from "~/db/schema";
import { formatRand } from "~/lib/money";
import { shopContact } from "~/email/shop-contact.server";
import { releaseHolds, returnUnits } from "~/stock/hold-sales.server";
import { voidOrderTickets } from "~/tickets/issue.server";
import { queueOrderEmail } from "./order-email-queue.server";
import { settleLineRefund } from "./line-refunds.server";
import { refundEmail } from "./order-emails.server";
import type { MailSettingsForOrders } from "./order-mail-settings.server";
import { recordOrderEvent } from "./order-history.server";
import type { OrderRow } from "./orders.server";
import { firstDelivery, lockOrder, type EventRecord, type PaymentOutcome } from "./payment-event-delivery.server";

interface RefundEventInput {
  event: EventRecord;
  /** The provider's refund id (`rfd_…`). */
  refundId?: string;
  checkoutId?: string;
  paymentId?: string;
  orderId?: string;
  amountCents?: number;
  now: Date;
  mail?: MailSettingsForOrders;
}

/** The refund an event is about: by the provider's refund id, else the oldest still waiting on the order. */
async function lockRefund(tx: Tx, orderId: string, providerRefundId: string | undefined) {
  const waiting = and(eq(refunds.orderId, orderId), inArray(refunds.status, ["requested", "pending"]));
  if (providerRefundId) {
    const [byId] = await tx
      .select()
      .from(refunds)
      .where(and(eq(refunds.orderId, orderId), eq(refunds.providerRefundId, providerRefundId)))
      .for("update");
    if (byId) return byId;
  }
  const [oldest] = await tx
    .select()
    .from(refunds)
    .where(waiting)
    .orderBy(asc(refunds.createdAt))
    .limit(1)
    .for("update");
  return oldest;
}

/**
 * A refund event counted once, with its order and its refund locked for the rest of the transaction;
 * or the outcome when it is a repeat or names no order.
 */
async function lockRefundEvent(
  tx: Tx,
  input: RefundEventInput,
): Promise<
  { outcome: "duplicate" | "unknown-order" } | { order: OrderRow; refund: typeof refunds.$inferSelect | undefined }
> {
  if (!(await firstDelivery(tx, input.event))) return { outcome: "duplicate" as const };
  const order = await lockOrder(tx, {
    orderId: input.orderId,
    checkoutId: input.checkoutId,
    paymentId: input.paymentId,
  });
  if (!order) return { outcome: "unknown-order" as const };
  return { order, refund: await lockRefund(tx, order.id, input.refundId) };
}

/**
 * A refund that went through. One the owner asked for in the admin completes her request (the
 * amount she chose, units back on sale if she asked); one made elsewhere (the provider's own
 * dashboard) refunds what the event says. A fully refunded order is `refunded`, otherwise
 * `partially_refunded`. A refund that overtakes its payment event marks the order refunded straight
 * away and frees its hold, and the late payment then changes nothing.
 */
export async function recordRefund(
  db: Database,
  input: RefundEventInput,
): Promise<{ outcome: PaymentOutcome; order?: OrderRow }> {
  return db.transaction(async (tx) => {
    const locked = await lockRefundEvent(tx, input);
    if ("outcome" in locked) return locked;
    const { order, refund } = locked;
    if (refund?.status === "succeeded" || (!refund && order.status === "refunded")) {
      await recordOrderEvent(tx, order.id, "webhook", "Refund confirmed again: nothing changed", input.now);
      return { outcome: "unchanged" as const, order };
    }
    const amount = refund?.amountCents ?? input.amountCents ?? order.amountCents - order.refundedCents;
    const refundedCents = Math.min(order.amountCents, order.refundedCents + amount);
    const [updated] = await tx
      .update(orders)
      .set({
        status: refundedCents >= order.amountCents ? "refunded" : "partially_refunded",
        refundedCents,
        // A fully refunded order has been dealt with.
        ...(refundedCents >= order.amountCents && { needsAttention: false }),
        updatedAt: input.now,
        providerPaymentId: order.providerPaymentId ?? input.paymentId ?? null,
      })
      .where(eq(orders.id, order.id))
      .returning();
    if (refund) {
      await tx
        .update(refunds)
        .set({
          status: "succeeded",
          completedAt: input.now,
          providerRefundId: refund.providerRefundId ?? input.refundId ?? null,
        })
        .where(eq(refunds.id, refund.id));
    }
    if (order.status !== "paid" && order.status !== "partially_refunded") await releaseHolds(tx, [order.id]);
    let summary = `Refunded ${formatRand(amount)}${refund ? "" : " (made at the payment provider)"}`;
    // A refund of some units of a line voids and returns only those (issue 39).
    const byLine = refund ? await settleLineRefund(tx, refund, input.now) : null;
    if (byLine) summary += byLine.summary;
    else if (refund?.restock && order.status !== "pending") {
      const units = await returnUnits(tx, order.id, input.now);
      if (units) summary += `; ${units === 1 ? "the unit is" : `${units} units are`} back on sale`;
    }
    // A ticket whose seat went back on sale, or whose money went back, no longer admits.
    if ((refund?.restock && !byLine) || refundedCents >= order.amountCents)
      await voidOrderTickets(tx, order.id, input.now);
    await recordOrderEvent(tx, order.id, "refund", summary, input.now, {
      refundId: input.refundId ?? null,
      amountCents: amount,
    });
    await queueOrderEmail(tx, refundEmail(updated!, amount, await shopContact(tx)), input.now);
    return { outcome: "refunded" as const, order: updated };
  });
}

/** A refund the provider could not make: the owner sees it failed on the order and may try again. */
export async function recordRefundFailure(
  db: Database,
  input: RefundEventInput,
): Promise<{ outcome: PaymentOutcome; order?: OrderRow }> {
  return db.transaction(async (tx) => {
    const locked = await lockRefundEvent(tx, input);
    if ("outcome" in locked) return locked;
    const { order, refund } = locked;
    if (!refund || refund.status === "succeeded" || refund.status === "failed")
      return { outcome: "unchanged" as const, order };
    await tx
      .update(refunds)
      .set({
        status: "failed",
        completedAt: input.now,
        failureReason: "The payment provider could not make this refund.",
      })
      .where(eq(refunds.id, refund.id));
    await recordOrderEvent(
      tx,
      order.id,
      "refund",
      `Refund of ${formatRand(refund.amountCents)} failed at the payment provider`,
      input.now,
    );
    return { outcome: "refund-failed" as const, order };
  });
}
