/**
 * The one payment interface. A provider hosts the payment page, tells us about payments through a
 * signed webhook, and answers "what happened to this checkout?" for reconciliation. Nothing here is
 * Yoco-specific, so PayFast, Paystack or Ozow would fit behind it too (decision 040).
 */
/** One line as the payment page lists it: display only, the amount is what is charged. */
export interface CheckoutLineItem {
  displayName: string;
  quantity: number;
  unitPriceCents: number;
}

export interface CheckoutRequest {
  orderId: string;
  reference: string;
  amountCents: number;
  currency: "ZAR";
  lineItems: CheckoutLineItem[];
  /** Strings only: what the provider hands back in its webhook so we can find the order. */
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  failureUrl: string;
  /** The order's idempotency key: a retried create never makes a second checkout. */
  idempotencyKey: string;
}

export interface CreatedCheckout {
  checkoutId: string;
  redirectUrl: string;
}

/** What the provider says about a checkout: only `completed` means money was taken. */
export interface CheckoutStatus {
  checkoutId: string;
  status: "created" | "started" | "processing" | "completed" | "refunded" | "unknown";
  paymentId: string | null;
}

export interface PaymentProvider {
  readonly name: "yoco" | "simulator";
  createCheckout(request: CheckoutRequest): Promise<CreatedCheckout>;
  getCheckout(checkoutId: string): Promise<CheckoutStatus>;
  /**
   * Asks for a refund of a paid checkout (all of it, or `amountCents`); the outcome arrives later as
   * a refund.succeeded or refund.failed webhook. The idempotency key makes a retry ask only once.
   */
  refund(
    checkoutId: string,
    idempotencyKey: string,
    amountCents?: number,
  ): Promise<{ refundId: string; status: string }>;
}

/** A provider call that failed; `message` is safe to show the buyer. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = "PaymentProviderError";
  }
}

/** Where the buyer lands after the payment page: display only, the server decides the status. */
export function returnUrls(siteUrl: string, orderId: string) {
  const url = (status: string) => `${siteUrl}/order-confirmation?${new URLSearchParams({ status, orderId })}`;
  return { successUrl: url("success"), cancelUrl: url("cancelled"), failureUrl: url("failed") };
}
