import type { AppContext } from "~/context.server";
import { returnUrls } from "~/payments/provider";
import { FREE_PROVIDER } from "./order-pricing.server";
import type { OrderRow } from "./orders.server";
import { mailSettingsForOrders } from "./order-mail-settings.server";
import { recordPayment } from "./payment-events.server";

/**
 * An order whose member perks bring it to R 0.00 (issue 40): no provider takes nothing, so it is
 * confirmed at once as a payment of nothing would be (its holds become sales, tickets are issued, the
 * emails are queued) and the buyer goes straight to her confirmation. Returns where to send her.
 */
export async function confirmFreeOrder(
  context: Pick<AppContext, "db" | "config" | "clock">,
  order: OrderRow,
): Promise<string> {
  await recordPayment(context.db, {
    // One event id per order: a repeat confirms nothing twice.
    event: { eventId: `free:${order.id}`, provider: FREE_PROVIDER, eventType: "order.free", payload: {} },
    orderId: order.id,
    paymentId: null,
    amountCents: 0,
    now: context.clock.now(),
    mail: mailSettingsForOrders(context.config),
  });
  return returnUrls(context.config.siteUrl, order.id).successUrl;
}
