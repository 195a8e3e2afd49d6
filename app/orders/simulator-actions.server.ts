import { redirect } from "react-router";
import type { AppContext } from "~/context.server";
import { returnUrls } from "~/payments/provider";
import { simulatedPaymentWebhook, simulatedRefundWebhook } from "~/payments/simulator.server";
import { closePendingOrder, findOrder, type OrderRow } from "./orders.server";
import { handlePaymentWebhook } from "./payment-webhook.server";

type Context = Pick<AppContext, "db" | "config" | "clock">;

/** The simulator serves only its own orders, and only while it is the configured provider. */
export async function simulatorOrder(context: Context, orderId: string): Promise<OrderRow | undefined> {
  if (context.config.payment.provider !== "simulator") return undefined;
  const order = await findOrder(context.db, orderId);
  return order?.provider === "simulator" ? order : undefined;
}

/** A same-origin path to the confirmation page, like Yoco's redirect but independent of SITE_URL. */
function confirmationPath(orderId: string, which: "successUrl" | "cancelUrl" | "failureUrl"): string {
  const url = new URL(returnUrls("http://localhost", orderId)[which]);
  return `${url.pathname}${url.search}`;
}

/**
 * Pay: sign a `payment.succeeded` webhook exactly as Yoco would and deliver it to the same
 * handler Yoco's deliveries reach, then send the buyer back. Decline and Cancel: as the payment
 * provider the simulator knows the payment will not happen, so the order closes and its units
 * return to sale (Yoco has no such event: there the hold runs out instead, decision 043).
 */
export async function runSimulatorIntent(context: Context, order: OrderRow, intent: string): Promise<Response> {
  if (intent === "pay") {
    if (order.status === "pending") {
      const delivery = simulatedPaymentWebhook(context.config.payment.simulatorWebhookSecret, order);
      const response = await handlePaymentWebhook(
        new Request(`${context.config.siteUrl}/api/webhooks/yoco`, {
          method: "POST",
          headers: delivery.headers,
          body: delivery.body,
        }),
        context,
      );
      if (!response.ok) throw new Error(`simulated webhook refused: ${response.status} ${await response.text()}`);
    }
    return redirect(confirmationPath(order.id, "successUrl"));
  }
  if (intent === "decline") {
    await closePendingOrder(context.db, order.id, "failed", context.clock.now());
    return redirect(confirmationPath(order.id, "failureUrl"));
  }
  await closePendingOrder(context.db, order.id, "cancelled", context.clock.now());
  return redirect(confirmationPath(order.id, "cancelUrl"));
}

/**
 * The simulator's answer to a refund request: the `refund.succeeded` webhook Yoco would send later,
 * delivered to the same handler. (With Yoco the order shows "refund pending" until it arrives.)
 */
export async function deliverSimulatedRefund(
  context: Context,
  order: OrderRow,
  refund: { refundId: string; amountCents: number },
): Promise<void> {
  // Signed at the real time, as the verifier checks signatures against it (not the app clock tests pin).
  const delivery = simulatedRefundWebhook(context.config.payment.simulatorWebhookSecret, order, refund);
  const response = await handlePaymentWebhook(
    new Request(`${context.config.siteUrl}/api/webhooks/yoco`, {
      method: "POST",
      headers: delivery.headers,
      body: delivery.body,
    }),
    context,
  );
  if (!response.ok) throw new Error(`simulated refund webhook refused: ${response.status} ${await response.text()}`);
}
