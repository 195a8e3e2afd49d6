import type { AppConfig } from "~/config.server";
import { webhookSecret } from "./providers.server";
import { verifyWebhook } from "./webhook-signature.server";

const MAX_BODY = 64 * 1024;

/** The answer a provider's delivery gets: JSON, never stored by anything in between. */
export const webhookResponse = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });

const text = (value: unknown) =>
  typeof value === "string" && value.length <= 200 && !value.includes("\u0000") ? value : undefined;

/** A delivery as it is recorded: its id makes it count once. */
export interface ReceivedEvent {
  eventId: string;
  provider: string;
  eventType: string;
  payload: unknown;
}

/** What a verified delivery says, in the shop's terms; the ids that name an order are only what the provider sent. */
export type PaymentWebhookEvent =
  | {
      kind: "payment";
      received: ReceivedEvent;
      orderId?: string;
      checkoutId?: string;
      paymentId: string;
      amountCents: number;
    }
  | {
      kind: "refund.succeeded" | "refund.failed";
      received: ReceivedEvent;
      refundId?: string;
      checkoutId?: string;
      orderId?: string;
      paymentId?: string;
      amountCents?: number;
    }
  | { kind: "other"; received: ReceivedEvent };

/**
 * A delivery to POST /api/webhooks/yoco, from Yoco or the simulator, verified before anything is read
 * from it: a forged, stale, oversized or malformed one is answered here and goes no further.
 */
export async function readPaymentWebhook(
  request: Request,
  config: AppConfig,
): Promise<{ ok: true; webhookId: string; event: PaymentWebhookEvent } | { ok: false; response: Response }> {
  const rawBody = await request.text();
  if (rawBody.length > MAX_BODY) return { ok: false, response: webhookResponse({ error: "body too large" }, 413) };
  const verified = verifyWebhook(webhookSecret(config), request.headers, rawBody);
  if (!verified.ok) return { ok: false, response: webhookResponse({ error: verified.reason }, verified.status) };

  const { webhookId } = verified;
  const received = {
    eventId: webhookId,
    provider: config.payment.provider,
    eventType: verified.event.type,
    payload: verified.event,
  };
  if (!verified.known) return { ok: true, webhookId, event: { kind: "other", received } };
  const { event } = verified;
  if (event.type === "payment.succeeded") {
    const { payload } = event;
    return {
      ok: true,
      webhookId,
      event: {
        kind: "payment",
        received,
        orderId: text(payload.metadata.orderId),
        checkoutId: text(payload.metadata.checkoutId),
        paymentId: payload.id,
        amountCents: payload.amount,
      },
    };
  }
  const { payload } = event;
  return {
    ok: true,
    webhookId,
    event: {
      kind: event.type,
      received,
      refundId: text(payload.id),
      checkoutId: text(payload.metadata.checkoutId),
      orderId: text(payload.metadata.orderId),
      paymentId: payload.paymentId,
      amountCents: payload.amount,
    },
  };
}
