import { z } from "zod";
import {
  PaymentProviderError,
  type CheckoutRequest,
  type CheckoutStatus,
  type CreatedCheckout,
  type PaymentProvider,
} from "./provider";

export interface YocoOptions {
  apiBase: string;
  secretKey: string;
  /** Attempts in all for a retryable failure (502, 503, 504, network error, timeout). */
  attempts?: number;
  /** First backoff delay; doubled for each retry. */
  backoffMs?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const RETRYABLE = new Set([502, 503, 504]);

const checkoutReply = z.object({
  id: z.string().min(1),
  redirectUrl: z.string().url().optional(),
  status: z.string().optional(),
  paymentId: z.string().nullable().optional(),
});

const errorReply = z.object({ message: z.string().optional(), description: z.string().optional() }).passthrough();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The real Yoco Checkout API (see /work/shared/payments-yoco.md). */
export type YocoProvider = PaymentProvider;

const refundReply = z.object({
  refundId: z.string().optional(),
  id: z.string().optional(),
  status: z.string().default("pending"),
});

export function createYocoProvider(options: YocoOptions): YocoProvider {
  const attempts = options.attempts ?? 3;
  const backoffMs = options.backoffMs ?? 300;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const doFetch = options.fetch ?? fetch;

  async function call(method: "GET" | "POST", path: string, body?: unknown, idempotencyKey?: string) {
    let lastError: PaymentProviderError | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await sleep(backoffMs * 2 ** (attempt - 2));
      let response: Response;
      try {
        response = await doFetch(`${options.apiBase}${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${options.secretKey}`,
            ...(body === undefined ? {} : { "Content-Type": "application/json" }),
            ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const timedOut = (error as Error).name === "TimeoutError";
        lastError = new PaymentProviderError(
          timedOut
            ? "The payment service did not answer in time. Please try again."
            : "The payment service could not be reached. Please try again.",
          true,
        );
        continue;
      }
      const text = await response.text();
      if (response.ok) {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new PaymentProviderError(
            "The payment service sent an unreadable answer. Please try again.",
            false,
            response.status,
          );
        }
      }
      const detail = readError(text);
      lastError = new PaymentProviderError(
        RETRYABLE.has(response.status)
          ? "The payment service is temporarily unavailable. Please try again."
          : `The payment service refused the checkout${detail ? `: ${detail}` : ""}.`,
        RETRYABLE.has(response.status),
        response.status,
      );
      if (!lastError.retryable) throw lastError;
    }
    throw lastError!;
  }

  return {
    name: "yoco",
    async createCheckout(request: CheckoutRequest): Promise<CreatedCheckout> {
      const body = {
        amount: request.amountCents,
        currency: request.currency,
        successUrl: request.successUrl,
        cancelUrl: request.cancelUrl,
        failureUrl: request.failureUrl,
        metadata: request.metadata,
        lineItems: request.lineItems.map((l) => ({
          displayName: l.displayName,
          quantity: l.quantity,
          pricingDetails: { price: l.unitPriceCents },
        })),
      };
      const parsed = checkoutReply.safeParse(await call("POST", "/api/checkouts", body, request.idempotencyKey));
      if (!parsed.success || !parsed.data.redirectUrl) {
        throw new PaymentProviderError("The payment service sent an incomplete answer. Please try again.", false);
      }
      return { checkoutId: parsed.data.id, redirectUrl: parsed.data.redirectUrl };
    },
    async getCheckout(checkoutId: string): Promise<CheckoutStatus> {
      const parsed = checkoutReply.safeParse(await call("GET", `/api/checkouts/${encodeURIComponent(checkoutId)}`));
      if (!parsed.success) return { checkoutId, status: "unknown", paymentId: null };
      return { checkoutId, status: checkoutStatus(parsed.data.status), paymentId: parsed.data.paymentId ?? null };
    },
    async refund(checkoutId, idempotencyKey, amountCents) {
      const body = { metadata: { checkoutId }, ...(amountCents === undefined ? {} : { amount: amountCents }) };
      const parsed = refundReply.safeParse(
        await call("POST", `/api/checkouts/${encodeURIComponent(checkoutId)}/refund`, body, idempotencyKey),
      );
      const refundId = parsed.success ? (parsed.data.refundId ?? parsed.data.id) : undefined;
      if (!parsed.success || !refundId)
        throw new PaymentProviderError("The payment service sent an incomplete refund answer.", false);
      return { refundId, status: parsed.data.status };
    },
  };
}

function checkoutStatus(value: string | undefined): CheckoutStatus["status"] {
  const known = ["created", "started", "processing", "completed", "refunded"] as const;
  return known.find((k) => k === value) ?? "unknown";
}

function readError(text: string): string | undefined {
  try {
    const parsed = errorReply.safeParse(JSON.parse(text));
    const message = parsed.success ? (parsed.data.description ?? parsed.data.message) : undefined;
    return message?.slice(0, 200);
  } catch {
    return undefined;
  }
}
