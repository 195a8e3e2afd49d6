import { eq, or } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orders, paymentWebhookEvents } from "~/db/schema";
import { queueEmail } from "~/email/outbox.server";
import { shopContact } from "~/email/shop-contact.server";
import { issueTickets } from "~/tickets/issue.server";
import { convertHolds, releaseHolds, type Tx } from "./holds.server";
import { customerConfirmationEmail, ownerOrderNotice } from "./order-emails.server";
import { isOrderId, type OrderRow } from "./orders.server";

export type PaymentOutcome = "paid" | "refunded" | "duplicate" | "unchanged" | "unknown-order" | "amount-mismatch";

export interface EventRecord {
  /** Webhook id (or a synthetic id for a reconciliation) that makes the event count once. */
  eventId: string;
  provider: string;
  eventType: string;
  payload: unknown;
}

export interface MailSettingsForOrders {
  siteUrl: string;
  ownerEmail: string;
}

/** Records the event id; false when it was recorded before (a repeat delivery, or a concurrent one that won). */
async function firstDelivery(tx: Tx, event: EventRecord): Promise<boolean> {
  const inserted = await tx
    .insert(paymentWebhookEvents)
    .values({ webhookId: event.eventId, provider: event.provider, eventType: event.eventType, payload: event.payload as object })
    .onConflictDoNothing({ target: paymentWebhookEvents.webhookId })
    .returning({ id: paymentWebhookEvents.webhookId });
  return inserted.length > 0;
}

/** The order an event is about, locked for the rest of the transaction. */
async function lockOrder(tx: Tx, ref: { orderId?: string; checkoutId?: string; paymentId?: string }): Promise<OrderRow | undefined> {
  const conditions = [
    isOrderId(ref.orderId) ? eq(orders.id, ref.orderId) : undefined,
    ref.checkoutId ? eq(orders.yocoCheckoutId, ref.checkoutId) : undefined,
    ref.paymentId ? eq(orders.providerPaymentId, ref.paymentId) : undefined,
  ].filter((c) => c !== undefined);
  if (!conditions.length) return undefined;
  const [row] = await tx.select().from(orders).where(or(...conditions)).limit(1).for("update");
  return row;
}

/**
 * A completed payment, from a verified webhook or from asking the provider. In one transaction:
 * the event id is recorded (so a repeat or a concurrent duplicate does nothing), the order becomes
 * paid with its provider ids, its holds become sales, a ticket or workshop order gets one ticket per
 * seat, and the two emails are queued.
 * A refunded order stays refunded; a failed, cancelled or expired one becomes paid (the money was taken).
 */
export async function recordPayment(
  db: Database,
  input: {
    event: EventRecord;
    orderId?: string;
    checkoutId?: string;
    paymentId: string | null;
    amountCents: number;
    now: Date;
    mail: MailSettingsForOrders;
  },
): Promise<{ outcome: PaymentOutcome; order?: OrderRow }> {
  return db.transaction(async (tx) => {
    if (!(await firstDelivery(tx, input.event))) return { outcome: "duplicate" as const };
    const order = await lockOrder(tx, { orderId: input.orderId, checkoutId: input.checkoutId });
    if (!order) return { outcome: "unknown-order" as const };
    if (order.status === "paid" || order.status === "refunded") return { outcome: "unchanged" as const, order };
    if (input.amountCents !== order.amountCents) {
      console.error(
        `[payments] order ${order.id}: payment of ${input.amountCents} cents does not match the order's ${order.amountCents}; left for the owner`,
      );
      return { outcome: "amount-mismatch" as const, order };
    }
    const [paid] = await tx
      .update(orders)
      .set({
        status: "paid",
        completedAt: input.now,
        updatedAt: input.now,
        providerPaymentId: input.paymentId ?? order.providerPaymentId,
        yocoCheckoutId: order.yocoCheckoutId ?? input.checkoutId ?? null,
      })
      .where(eq(orders.id, order.id))
      .returning();
    await convertHolds(tx, order.id);
    // Tickets are issued with the payment, so the confirmation that carries them is queued with it too.
    const tickets = await issueTickets(tx, paid!, input.now);
    const contact = await shopContact(tx);
    await queueEmail(tx, await customerConfirmationEmail(paid!, input.mail.siteUrl, { tickets, contact, now: input.now }));
    await queueEmail(tx, ownerOrderNotice(paid!, input.mail.ownerEmail, contact, tickets.length));
    return { outcome: "paid" as const, order: paid };
  });
}

/**
 * A refund that went through. A paid order becomes refunded (stock is not put back: the owner
 * decides whether the piece returns to the shelf). A refund that overtakes its payment event marks
 * the order refunded straight away and frees its hold, and the late payment then changes nothing.
 */
export async function recordRefund(
  db: Database,
  input: { event: EventRecord; checkoutId?: string; paymentId?: string; orderId?: string; now: Date },
): Promise<{ outcome: PaymentOutcome; order?: OrderRow }> {
  return db.transaction(async (tx) => {
    if (!(await firstDelivery(tx, input.event))) return { outcome: "duplicate" as const };
    const order = await lockOrder(tx, { orderId: input.orderId, checkoutId: input.checkoutId, paymentId: input.paymentId });
    if (!order) return { outcome: "unknown-order" as const };
    if (order.status === "refunded") return { outcome: "unchanged" as const, order };
    const [refunded] = await tx
      .update(orders)
      .set({ status: "refunded", updatedAt: input.now, providerPaymentId: order.providerPaymentId ?? input.paymentId ?? null })
      .where(eq(orders.id, order.id))
      .returning();
    if (order.status !== "paid") await releaseHolds(tx, [order.id]);
    return { outcome: "refunded" as const, order: refunded };
  });
}

/** Records an event that changes no order (refund.failed, unknown types) so a repeat is recognised. */
export async function recordIgnoredEvent(db: Database, event: EventRecord): Promise<PaymentOutcome> {
  return db.transaction(async (tx) => ((await firstDelivery(tx, event)) ? "unchanged" : "duplicate"));
}
