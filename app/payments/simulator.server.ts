import { createHash, randomBytes } from "node:crypto";
import type { CheckoutRequest, CheckoutStatus, CreatedCheckout, PaymentProvider } from "./provider";
import { signWebhook, type WebhookHeaders } from "./webhook-signature.server";

/** The checkout id the simulator gives an order (shaped like Yoco's `ch_…`). */
export const simulatorCheckoutId = (orderId: string) => `ch_sim_${orderId.replace(/-/g, "")}`;

/**
 * The built-in provider: its "hosted payment page" is /payments/simulator/{orderId}. It keeps no
 * state of its own (the page acts on the order directly), so it has nothing to reconcile.
 */
export function createSimulatorProvider(): PaymentProvider {
  return {
    name: "simulator",
    async createCheckout(request: CheckoutRequest): Promise<CreatedCheckout> {
      return {
        checkoutId: simulatorCheckoutId(request.orderId),
        redirectUrl: `/payments/simulator/${request.orderId}`,
      };
    },
    async getCheckout(checkoutId: string): Promise<CheckoutStatus> {
      return { checkoutId, status: "unknown", paymentId: null };
    },
    // The refund's webhook is delivered by the admin's refund action (orders/simulator-actions.server.ts),
    // as the payment itself is by the simulator page. The same key always names the same refund.
    async refund(_checkoutId: string, idempotencyKey: string) {
      return {
        refundId: `rfd_sim_${createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 24)}`,
        status: "pending",
      };
    },
  };
}

/** A `refund.succeeded` delivery exactly as Yoco sends it, signed with the simulator's secret. */
export function simulatedRefundWebhook(
  secret: string,
  order: { id: string; currency: string; yocoCheckoutId: string | null; providerPaymentId: string | null },
  refund: { refundId: string; amountCents: number },
  at: Date = new Date(),
): { headers: WebhookHeaders; body: string } {
  const event = {
    id: randomId("evt_sim_"),
    type: "refund.succeeded",
    createdDate: at.toISOString(),
    payload: {
      id: refund.refundId,
      type: "refund",
      amount: refund.amountCents,
      currency: order.currency,
      paymentId: order.providerPaymentId ?? undefined,
      status: "succeeded",
      mode: "test",
      metadata: { checkoutId: order.yocoCheckoutId ?? simulatorCheckoutId(order.id), orderId: order.id },
    },
  };
  const body = JSON.stringify(event);
  return { headers: signWebhook(secret, randomId("msg_sim_"), body, at), body };
}

const randomId = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`;

/** A `payment.succeeded` delivery exactly as Yoco sends it, signed with the simulator's secret. */
export function simulatedPaymentWebhook(
  secret: string,
  order: { id: string; amountCents: number; currency: string; yocoCheckoutId: string | null; reference: string },
  at: Date = new Date(),
): { headers: WebhookHeaders; body: string } {
  const checkoutId = order.yocoCheckoutId ?? simulatorCheckoutId(order.id);
  const event = {
    id: randomId("evt_sim_"),
    type: "payment.succeeded",
    createdDate: at.toISOString(),
    payload: {
      id: randomId("p_sim_"),
      type: "payment",
      createdDate: at.toISOString(),
      amount: order.amountCents,
      currency: order.currency,
      status: "succeeded",
      mode: "test",
      paymentMethodDetails: {
        type: "card",
        card: { maskedCard: "************1111", scheme: "visa", expiryMonth: 12, expiryYear: 30 },
      },
      metadata: { checkoutId, orderId: order.id, reference: order.reference },
    },
  };
  const body = JSON.stringify(event);
  return { headers: signWebhook(secret, randomId("msg_sim_"), body, at), body };
}
