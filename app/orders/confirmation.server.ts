import type { AppContext } from "~/context.server";
import { paymentProvider } from "~/payments/providers.server";
import type { PaymentProvider } from "~/payments/provider";
import { findOrder, findOrderByCheckoutId, type OrderRow } from "./orders.server";
import { mailSettingsForOrders } from "./order-mail-settings.server";
import { reconcileOrder, settleUnpaidReturn } from "./reconcile.server";
import { retryCheckoutQuery } from "./retry.server";

export type ConfirmationState = "success" | "failed" | "pending" | "refunded";

export interface ConfirmationView {
  state: ConfirmationState;
  /** What the Order Reference box shows: our reference, or the id the buyer arrived with. */
  reference: string | null;
  orderId: string | null;
  checkoutId: string | null;
  /** Whether the state comes from a stored order (true) or only from the query (false). */
  fromOrder: boolean;
  /** For a failed payment: the checkout query that offers the same item again ("Try Again"). */
  retry: string | null;
}

/** The spec's reading of the query: success, failed, anything else is pending. */
export const stateFromQuery = (status: string | null): ConfirmationState =>
  status === "success" ? "success" : status === "failed" ? "failed" : "pending";

export function stateFromOrder(status: OrderRow["status"]): ConfirmationState {
  if (status === "paid" || status === "partially_refunded") return "success";
  if (status === "refunded") return "refunded";
  if (status === "pending") return "pending";
  return "failed";
}

/**
 * What /order-confirmation shows. The query only says where the buyer came from; a stored order's
 * real status wins. Arriving with status=success while the order is still pending asks the provider
 * (the webhook may be late) and records a completed payment. Shows no customer details, ever.
 */
export async function confirmationView(
  query: URLSearchParams,
  context: Pick<AppContext, "db" | "config" | "clock">,
  provider: PaymentProvider = paymentProvider(context.config),
): Promise<ConfirmationView> {
  const status = query.get("status");
  const rawOrderId = (query.get("orderId") ?? "").trim().slice(0, 100) || null;
  const rawCheckout = (query.get("checkout") ?? query.get("checkoutId") ?? "").trim().slice(0, 100) || null;
  let order = rawOrderId ? await findOrder(context.db, rawOrderId) : undefined;
  if (!order && rawCheckout) order = await findOrderByCheckoutId(context.db, rawCheckout);

  if (!order) {
    return {
      state: stateFromQuery(status),
      reference: rawOrderId ?? rawCheckout,
      orderId: rawOrderId,
      checkoutId: rawCheckout,
      fromOrder: false,
      retry: null,
    };
  }
  let current = order.status;
  const mail = mailSettingsForOrders(context.config);
  if (current === "pending" && status === "success") {
    const reconciled = await reconcileOrder(context.db, provider, order, context.clock.now(), mail);
    if (reconciled !== "unreachable") current = reconciled;
  } else if (current === "pending" && (status === "failed" || status === "cancelled")) {
    const settled = await settleUnpaidReturn(context.db, provider, order, status, context.clock.now(), mail);
    // Unreachable provider: the order stays pending, and the buyer is told what they chose.
    current = settled === "unreachable" ? "failed" : settled;
  }
  const state = stateFromOrder(current);
  return {
    state,
    reference: order.reference,
    orderId: order.id,
    checkoutId: order.yocoCheckoutId,
    fromOrder: true,
    retry: state === "failed" ? await retryCheckoutQuery(context.db, order) : null,
  };
}
