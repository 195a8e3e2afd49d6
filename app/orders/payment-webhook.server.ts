import type { AppContext } from "~/context.server";
import { readPaymentWebhook, webhookResponse } from "~/payments/webhooks.server";
import { mailSettingsForOrders } from "./order-mail-settings.server";
import { recordIgnoredEvent, type PaymentOutcome } from "./payment-event-delivery.server";
import { recordPayment } from "./payment-events.server";
import { recordRefund, recordRefundFailure } from "./refund-events.server";

/**
 * POST /api/webhooks/yoco, shared by Yoco and the simulator: payments/ verifies and reads the delivery
 * (nothing is read or written for a forged, stale or malformed one), then its event is applied to the
 * order it names exactly once.
 */
export async function handlePaymentWebhook(
  request: Request,
  context: Pick<AppContext, "db" | "config" | "clock">,
): Promise<Response> {
  const read = await readPaymentWebhook(request, context.config);
  if (!read.ok) return read.response;
  const { webhookId, event } = read;
  const now = context.clock.now();
  const mail = mailSettingsForOrders(context.config);
  let outcome: PaymentOutcome;
  if (event.kind === "payment") {
    const { orderId, checkoutId, paymentId, amountCents } = event;
    ({ outcome } = await recordPayment(context.db, {
      event: event.received,
      orderId,
      checkoutId,
      paymentId,
      amountCents,
      now,
      mail,
    }));
  } else if (event.kind === "refund.succeeded" || event.kind === "refund.failed") {
    const { refundId, checkoutId, orderId, paymentId, amountCents } = event;
    const refund = { event: event.received, refundId, checkoutId, orderId, paymentId, amountCents, now, mail };
    ({ outcome } =
      event.kind === "refund.succeeded"
        ? await recordRefund(context.db, refund)
        : await recordRefundFailure(context.db, refund));
  } else {
    outcome = await recordIgnoredEvent(context.db, event.received);
  }
  if (outcome === "unknown-order")
    console.warn(`[payments] webhook ${webhookId} (${event.received.eventType}) names no order we know`);
  return webhookResponse({ received: true, outcome }, 200);
}
