import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orders } from "~/db/schema";
import { formatRand } from "~/lib/money";
import { shopContactFrom } from "~/email/shop-contact.server";
import { currentSiteSettings } from "~/settings/site-settings.server";
import { applyMembershipPayment } from "~/memberships/members.server";
import { convertHolds, holdsToConvert } from "~/stock/hold-sales.server";
import { issueTickets, ticketLinesOf } from "~/tickets/issue.server";
import { queuedOrderEmailStatement, type OrderEmail } from "./order-email-queue.server";
import { customerConfirmationEmail, ownerAttentionNotice, ownerOrderNotice } from "./order-emails.server";
import { orderPageAccessUpsert, orderPageUrl } from "./order-access.server";
import { orderHistoryEntry, orderHistoryInsert, recordOrderEvent } from "./order-history.server";
import type { MailSettingsForOrders } from "./order-mail-settings.server";
import { isOrderId, type OrderRow } from "./orders.server";
import { firstDeliveryOfOrder, type EventRecord, type PaymentOutcome } from "./payment-event-delivery.server";
import { providerName } from "./payment-words";

/**
 * Starts a statement (a Drizzle query runs when awaited) without waiting for its answer; the caller
 * awaits it later with the rest. A failure before then is not reported as unhandled: the later await
 * sees it and the transaction rolls back.
 */
function started<T>(statement: PromiseLike<T>): Promise<T> {
  const running = Promise.resolve(statement);
  running.catch(() => {});
  return running;
}

/** Who confirmed a payment, in the owner's words (the event's own name stays in payment_events). */
const source = (order: Pick<OrderRow, "provider">) => providerName(order.provider);

/** Orders that are paid, in whole or in part still: what a repeated or late payment event must not touch. */
const SETTLED = new Set<OrderRow["status"]>(["paid", "refunded", "partially_refunded"]);

/**
 * A completed payment, from a verified webhook or from asking the provider. In one transaction:
 * the event id is recorded (so a repeat or a concurrent duplicate does nothing), the order becomes
 * paid with its provider ids, its holds become sales, a ticket or workshop order gets one ticket per
 * seat, and the emails are queued.
 * A failed, cancelled or expired order becomes paid (the money was taken); if its unit was sold to
 * someone else in the meantime, it is paid but flagged for the owner and issued no ticket (decision 085).
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
  // The owner's stored contact details and notification address (/admin/settings), else the defaults;
  // read before the transaction, which holds PGlite's one connection until it ends.
  const settings = await currentSiteSettings(db, input.mail.ownerEmail);
  return db.transaction(async (tx) => {
    // The transaction holds PGlite, the one connection, and each wait for an answer costs a trip to
    // the main thread, so statements that need nothing from one another go together (decision 092).
    // Locking the order and recording the event (one statement), then reading its holds, run in that
    // order all the same.
    const knownOrderId = isOrderId(input.orderId) ? input.orderId : undefined;
    // Its ticket lines too, which the order's type may not need (decision 141).
    const [{ first, order }, holds, ticketLines] = await Promise.all([
      firstDeliveryOfOrder(tx, input.event, { orderId: input.orderId, checkoutId: input.checkoutId }),
      knownOrderId ? holdsToConvert(tx, knownOrderId) : undefined,
      knownOrderId ? ticketLinesOf(tx, knownOrderId) : undefined,
    ]);
    if (!first) return { outcome: "duplicate" as const };
    if (!order) return { outcome: "unknown-order" as const };
    if (SETTLED.has(order.status)) {
      await recordOrderEvent(
        tx,
        order.id,
        "webhook",
        `Payment confirmed again by ${source(order)}: nothing changed`,
        input.now,
      );
      return { outcome: "unchanged" as const, order };
    }
    if (input.amountCents !== order.amountCents) {
      console.error(
        `[payments] order ${order.id}: payment of ${input.amountCents} cents does not match the ` +
          `order's ${order.amountCents}; left for the owner`,
      );
      await tx
        .update(orders)
        .set({
          needsAttention: true,
          attentionReason: `A payment of ${formatRand(input.amountCents)} arrived for this ${formatRand(order.amountCents)} order.`,
          updatedAt: input.now,
        })
        .where(eq(orders.id, order.id));
      await recordOrderEvent(
        tx,
        order.id,
        "attention",
        `Payment of ${formatRand(input.amountCents)} does not match the order`,
        input.now,
      );
      return { outcome: "amount-mismatch" as const, order };
    }
    const wasClosed = order.status !== "pending";
    const { unavailable } = await convertHolds(tx, order.id, input.now, order.id === knownOrderId ? holds : undefined);
    const attention = unavailable.length > 0;
    const changes = {
      status: "paid" as const,
      completedAt: input.now,
      updatedAt: input.now,
      providerPaymentId: input.paymentId ?? order.providerPaymentId,
      yocoCheckoutId: order.yocoCheckoutId ?? input.checkoutId ?? null,
      ...(attention && {
        needsAttention: true,
        attentionReason:
          "Paid after its hold was released, and the last unit had been sold to someone else. Refund it, or offer another piece or date.",
      }),
    };
    // The order as the update leaves it (the row is locked: nothing else changes it meanwhile).
    const paid: OrderRow = { ...order, ...changes };
    const update = sql`paid_order as (${tx.update(orders).set(changes).where(eq(orders.id, order.id)).getSQL()})`;
    const paidEntry = orderHistoryEntry({
      orderId: order.id,
      kind: "paid",
      summary: `Payment confirmed by ${source(order)}${wasClosed ? ` after it was ${order.status}` : ""}`,
      at: input.now,
      detail: { paymentId: input.paymentId },
    });
    // The order's writes and its emails make one statement, one trip to the database while the
    // transaction holds a connection (decision 102). Tickets and a membership's month come between
    // them: they read the order as paid, and their history follows the payment's.
    const inBetween =
      !attention && (paid.orderType === "ticket" || paid.orderType === "workshop" || paid.orderType === "membership");
    const paymentWritten = inBetween
      ? started(tx.execute(sql`with ${update} ${orderHistoryInsert([paidEntry])}`))
      : undefined;
    const contact = shopContactFrom(settings);
    const ownerEmail = settings.ownerEmail;
    // Tickets are issued with the payment, so the confirmation that carries them is queued with it too;
    // a late payment with no seat left gets none.
    const tickets = attention
      ? []
      : await issueTickets(tx, paid, input.now, order.id === knownOrderId ? ticketLines : undefined);
    // A membership payment gives its member a month, once, in this same transaction (decision 086).
    const member = paid.orderType === "membership" ? await applyMembershipPayment(tx, paid, input.now) : undefined;
    const orderPage = orderPageUrl(input.mail.siteUrl, input.mail.secret, order.id);
    const confirmation = await customerConfirmationEmail(paid, input.mail.siteUrl, {
      tickets,
      contact,
      now: input.now,
      orderPage,
    });
    const email = (queued: OrderEmail, name: string) => queuedOrderEmailStatement(tx, queued, name, input.now);
    // A membership's confirmation belongs to the member's email history too.
    const emails = [
      email({ ...confirmation, memberId: member?.id }, "confirmation"),
      email(ownerOrderNotice(paid, ownerEmail, contact, tickets.length), "owner_notice"),
    ];
    const entries = [...(paymentWritten ? [] : [paidEntry]), ...emails.map((e) => e.historyEntry)];
    if (attention) {
      const reason = `${paid.attentionReason} Open the order to refund it in one click: ${input.mail.siteUrl}/admin/orders/${order.id}`;
      const notice = email(ownerAttentionNotice(paid, ownerEmail, reason, contact), "attention_notice");
      emails.push(notice);
      entries.push(
        orderHistoryEntry({
          orderId: order.id,
          kind: "attention",
          summary: "Needs attention: no unit was left for this late payment",
          at: input.now,
        }),
        notice.historyEntry,
      );
    }
    // The private page the confirmation links to is recorded in the same statement.
    const pageAccess = sql`order_page as (${orderPageAccessUpsert(tx, input.mail.secret, order.id, input.now).getSQL()})`;
    const ctes = [...(paymentWritten ? [] : [update]), pageAccess, ...emails.map((e) => e.cte)];
    await Promise.all([
      paymentWritten,
      tx.execute(sql`with ${sql.join(ctes, sql`, `)} ${orderHistoryInsert(entries)}`),
    ]);
    return { outcome: attention ? ("paid-needs-attention" as const) : ("paid" as const), order: paid };
  });
}
