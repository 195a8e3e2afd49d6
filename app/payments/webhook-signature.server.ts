import { Webhook } from "standardwebhooks";
import { z } from "zod";
import { isStorableText } from "~/lib/storable-text";

/** Yoco asks receivers to refuse timestamps more than about 3 minutes from now. */
export const WEBHOOK_TOLERANCE_SECONDS = 180;

export type WebhookHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

const metadata = z.record(z.string(), z.unknown()).default({});

const paymentPayload = z.object({
  id: z.string().min(1),
  amount: z.number().int().nonnegative(),
  currency: z.string(),
  status: z.string().optional(),
  metadata: metadata,
});

const refundPayload = z.object({
  id: z.string().min(1),
  amount: z.number().int().nonnegative().optional(),
  paymentId: z.string().optional(),
  status: z.string().optional(),
  metadata: metadata,
});

/** The Yoco event envelope; unknown types are accepted (and recorded) but change nothing. */
export const webhookEventSchema = z.discriminatedUnion("type", [
  z.object({
    id: z.string().min(1),
    type: z.literal("payment.succeeded"),
    createdDate: z.string().optional(),
    payload: paymentPayload,
  }),
  z.object({
    id: z.string().min(1),
    type: z.literal("refund.succeeded"),
    createdDate: z.string().optional(),
    payload: refundPayload,
  }),
  z.object({
    id: z.string().min(1),
    type: z.literal("refund.failed"),
    createdDate: z.string().optional(),
    payload: refundPayload,
  }),
]);

export type WebhookEvent = z.infer<typeof webhookEventSchema>;

export type VerifiedWebhook =
  | { ok: true; webhookId: string; known: true; event: WebhookEvent }
  | { ok: true; webhookId: string; known: false; event: { id: string; type: string; payload: unknown } }
  | { ok: false; status: 400 | 401; reason: string };

/**
 * Checks a delivery before anything is read from it: the three Standard Webhooks headers, a
 * timestamp within 3 minutes of the real time (not the app's pinned clock: the signer uses real
 * time), an HMAC from `secret` (any of the space-separated v1 signatures), then the body's shape.
 */
export function verifyWebhook(
  secret: string,
  headers: Headers,
  rawBody: string,
  nowMs: number = Date.now(),
): VerifiedWebhook {
  const id = headers.get("webhook-id");
  const timestamp = headers.get("webhook-timestamp");
  const signature = headers.get("webhook-signature");
  if (!id || !timestamp || !signature || id.length > 200)
    return { ok: false, status: 400, reason: "missing webhook headers" };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, status: 400, reason: "malformed webhook-timestamp" };
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) {
    return { ok: false, status: 401, reason: "stale webhook timestamp" };
  }
  try {
    new Webhook(secret).verify(
      rawBody,
      { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signature },
      { jsonParse: false },
    );
  } catch {
    return { ok: false, status: 401, reason: "invalid webhook signature" };
  }
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return { ok: false, status: 400, reason: "body is not JSON" };
  }
  // The event is stored as jsonb, which cannot hold U+0000: such a delivery is malformed for us.
  if (containsUnstorableText(json))
    return { ok: false, status: 400, reason: "body holds characters that cannot be stored" };
  const envelope = z.object({ id: z.string().min(1), type: z.string().min(1), payload: z.unknown() }).safeParse(json);
  if (!envelope.success) return { ok: false, status: 400, reason: "not a webhook event" };
  const known = ["payment.succeeded", "refund.succeeded", "refund.failed"].includes(envelope.data.type);
  if (!known) return { ok: true, webhookId: id, event: envelope.data, known: false };
  const parsed = webhookEventSchema.safeParse(json);
  if (!parsed.success) return { ok: false, status: 400, reason: `malformed ${envelope.data.type} event` };
  return { ok: true, webhookId: id, event: parsed.data, known: true };
}

function containsUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return !isStorableText(value);
  if (depth > 64 || value === null || typeof value !== "object") return false;
  const entries = Array.isArray(value) ? value : Object.entries(value).flat();
  return entries.some((item) => containsUnstorableText(item, depth + 1));
}

/** Signs a delivery the way Yoco does (used by the simulator and by tests). */
export function signWebhook(secret: string, webhookId: string, body: string, at: Date = new Date()): WebhookHeaders {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    "webhook-id": webhookId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": new Webhook(secret).sign(webhookId, new Date(timestamp * 1000), body),
  };
}
