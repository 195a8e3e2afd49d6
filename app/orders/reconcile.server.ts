import type { Database } from "~/db/client.server";
import type { PaymentProvider } from "~/payments/provider";
import { closePendingOrder, findOrder, pendingOrdersPastHold, type OrderRow } from "./orders.server";
import type { MailSettingsForOrders } from "./order-mail-settings.server";
import { recordPayment } from "./payment-events.server";

/**
 * Asks the provider about a pending order whose webhook has not arrived, and records a completed
 * payment. Answers the order's status afterwards, or "unreachable" when the provider did not answer.
 */
export async function reconcileOrder(
  db: Database,
  provider: PaymentProvider,
  order: OrderRow,
  now: Date,
  mail: MailSettingsForOrders,
): Promise<OrderRow["status"] | "unreachable"> {
  if (order.status !== "pending" || !order.yocoCheckoutId || order.provider !== provider.name) return order.status;
  let checkout;
  try {
    checkout = await provider.getCheckout(order.yocoCheckoutId);
  } catch (error) {
    console.error(`[payments] reconciling order ${order.id} failed: ${(error as Error).message}`);
    return "unreachable";
  }
  if (checkout.status !== "completed") return order.status;
  const result = await recordPayment(db, {
    // One synthetic event id per checkout: concurrent reconciliations of the same order count once.
    event: {
      eventId: `reconcile:${order.yocoCheckoutId}`,
      provider: provider.name,
      eventType: "checkout.completed",
      payload: checkout,
    },
    orderId: order.id,
    checkoutId: order.yocoCheckoutId,
    paymentId: checkout.paymentId,
    amountCents: order.amountCents,
    now,
    mail,
  });
  if (result.outcome === "paid") return "paid";
  // Another request recorded it first (a concurrent reload, or the webhook): read what it stored.
  return (await findOrder(db, order.id))?.status ?? order.status;
}

/**
 * The buyer came back from the payment page through its failure or cancel address. The query is
 * not trusted: the provider is asked, a checkout it calls completed is recorded as paid, and any
 * other answer closes the order (failed or cancelled) and gives its units back at once
 * (decision 085). A provider that does not answer leaves the order pending for the sweep.
 */
export async function settleUnpaidReturn(
  db: Database,
  provider: PaymentProvider,
  order: OrderRow,
  returned: "failed" | "cancelled",
  now: Date,
  mail: MailSettingsForOrders,
): Promise<OrderRow["status"] | "unreachable"> {
  if (order.status !== "pending" || order.provider !== provider.name) return order.status;
  const reconciled = await reconcileOrder(db, provider, order, now, mail);
  if (reconciled !== "pending") return reconciled;
  await closePendingOrder(db, order.id, returned, now);
  // A webhook may have won the race and paid it: report what is stored.
  return (await findOrder(db, order.id))?.status ?? returned;
}

/**
 * The periodic sweep: a pending order whose hold has run out is asked about once more and, unless
 * it was paid, marked expired so its units return to sale.
 */
export async function sweepPendingOrders(
  db: Database,
  provider: PaymentProvider,
  now: Date,
  holdMinutes: number,
  mail: MailSettingsForOrders,
): Promise<{ paid: number; expired: number }> {
  let paid = 0;
  let expired = 0;
  for (const order of await pendingOrdersPastHold(db, now, holdMinutes)) {
    const status = await reconcileOrder(db, provider, order, now, mail);
    if (status === "paid") paid++;
    else if (status === "pending" && (await closePendingOrder(db, order.id, "expired", now))) expired++;
  }
  return { paid, expired };
}
