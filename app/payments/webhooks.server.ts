import type { AppContext } from "~/context.server";
import { mailSettingsForOrders, recordIgnoredEvent, recordPayment, recordRefund, recordRefundFailure, type PaymentOutcome } from "~/orders/payment-events.server";
import { webhookSecret } from "./providers.server";
import { verifyWebhook } from "./webhook-signature.server";

const MAX_BODY = 64 * 1024;

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });

const text = (value: unknown) =>
  typeof value === "string" && value.length <= 200 && !value.includes("\u0000") ? value : undefined;

/**
 * POST /api/webhooks/yoco, shared by Yoco and the simulator: verify first (nothing is read or
 * written for a forged, stale or malformed delivery), then apply the event exactly once.
 */
export async function handlePaymentWebhook(
  request: Request,
  context: Pick<AppContext, "db" | "config" | "clock">,
): Promise<Response> {
  const rawBody = await request.text();
  if (rawBody.length > MAX_BODY) return json({ error: "body too large" }, 413);
  const verified = verifyWebhook(webhookSecret(context.config), request.headers, rawBody);
  if (!verified.ok) return json({ error: verified.reason }, verified.status);

  const { webhookId } = verified;
  const record = {
    eventId: webhookId,
    provider: context.config.payment.provider,
    eventType: verified.event.type,
    payload: verified.event,
  };
  const now = context.clock.now();
  let outcome: PaymentOutcome;
  if (verified.known && verified.event.type === "payment.succeeded") {
    const { payload } = verified.event;
    ({ outcome } = await recordPayment(context.db, {
      event: record,
      orderId: text(payload.metadata.orderId),
      checkoutId: text(payload.metadata.checkoutId),
      paymentId: payload.id,
      amountCents: payload.amount,
      now,
      mail: mailSettingsForOrders(context.config),
    }));
  } else if (verified.known && (verified.event.type === "refund.succeeded" || verified.event.type === "refund.failed")) {
    const { payload } = verified.event;
    const refund = {
      event: record,
      refundId: text(payload.id),
      checkoutId: text(payload.metadata.checkoutId),
      orderId: text(payload.metadata.orderId),
      paymentId: payload.paymentId,
      amountCents: payload.amount,
      now,
      mail: mailSettingsForOrders(context.config),
    };
    ({ outcome } = verified.event.type === "refund.succeeded" ? await recordRefund(context.db, refund) : await recordRefundFailure(context.db, refund));
  } else {
    outcome = await recordIgnoredEvent(context.db, record);
  }
  if (outcome === "unknown-order") console.warn(`[payments] webhook ${webhookId} (${verified.event.type}) names no order we know`);
  return json({ received: true, outcome }, 200);
}
