import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { signWebhook, type WebhookHeaders } from "~/payments/webhook-signature.server";

/**
 * A fake of the Yoco Checkout API on 127.0.0.1, following /work/shared/payments-yoco.md: create and
 * read checkouts, idempotent replays (`Idempotent-Replayed: true`), refunds (live mode only),
 * webhook registration, and signed webhook deliveries. Faults can be injected for retry tests.
 */
export interface FakeCheckout {
  id: string;
  redirectUrl: string;
  status: "created" | "started" | "processing" | "completed" | "refunded";
  amount: number;
  currency: string;
  paymentId: string | null;
  successUrl?: string;
  cancelUrl?: string;
  failureUrl?: string;
  metadata: Record<string, string>;
  merchantId: string;
  processingMode: "test" | "live";
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  replayed?: boolean;
  status: number;
}

export interface SignedDelivery {
  headers: WebhookHeaders;
  body: string;
}

export interface FakeYoco {
  base: string;
  /** The `whsec_…` secret webhooks are signed with. */
  webhookSecret: string;
  secretKey: string;
  checkouts: Map<string, FakeCheckout>;
  requests: RecordedRequest[];
  /** The next `count` requests fail with `status` (e.g. 503) before reaching the API. */
  failNext(count: number, status: number): void;
  /** The next `count` requests wait `ms` before answering. */
  delayNext(count: number, ms: number): void;
  /** The buyer pays: the checkout completes and the `payment.succeeded` delivery is returned. */
  pay(checkoutId: string): SignedDelivery;
  /** A refund completes: the `refund.succeeded` delivery is returned (for the last refund asked of this checkout, if any). */
  refundSucceeded(checkoutId: string): SignedDelivery;
  /** The last refund asked of this checkout fails: the `refund.failed` delivery is returned. */
  refundFailed(checkoutId: string): SignedDelivery;
  /** Refunds asked for, per checkout: the id the API answered with and the amount (undefined: all of it). */
  refunds: Map<string, { refundId: string; amount?: number }[]>;
  close(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

const id = (prefix: string) => `${prefix}${randomBytes(10).toString("hex")}`;

export async function startFakeYoco(options: { secretKey?: string } = {}): Promise<FakeYoco> {
  const secretKey = options.secretKey ?? "sk_test_fake0123456789";
  const webhookSecret = `whsec_${randomBytes(24).toString("base64")}`;
  const checkouts = new Map<string, FakeCheckout>();
  const refunds = new Map<string, { refundId: string; amount?: number }[]>();
  const idempotent = new Map<string, { status: number; body: unknown; fingerprint: string }>();
  const requests: RecordedRequest[] = [];
  const faults: { status: number }[] = [];
  const delays: number[] = [];

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const path = (req.url ?? "").split("?")[0]!;
    const record: RecordedRequest = { method: req.method ?? "", path, headers: req.headers, body, status: 0 };
    requests.push(record);
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      json(res, status, payload, headers);
    };

    const delay = delays.shift();
    if (delay) await new Promise((r) => setTimeout(r, delay));
    if (res.destroyed) return;
    const fault = faults.shift();
    if (fault) return send(fault.status, { message: "Service temporarily unavailable" });

    if (req.headers.authorization !== `Bearer ${secretKey}`) return send(401, { message: "Unauthorized" });
    const mode = secretKey.startsWith("sk_live_") ? "live" : "test";

    if (req.method === "POST" && path === "/api/webhooks") {
      return send(200, {
        id: id("sub_"),
        mode,
        name: (body as { name?: string })?.name,
        url: (body as { url?: string })?.url,
        secret: webhookSecret,
      });
    }

    const key = req.headers["idempotency-key"];
    const idemKey = typeof key === "string" ? `${path}:${key}` : undefined;
    if (req.method === "POST" && idemKey && idempotent.has(idemKey)) {
      const first = idempotent.get(idemKey)!;
      record.replayed = true;
      return send(first.status, first.body, { "Idempotent-Replayed": "true" });
    }
    const remember = (status: number, payload: unknown) => {
      if (idemKey) idempotent.set(idemKey, { status, body: payload, fingerprint: raw });
      send(status, payload);
    };

    if (req.method === "POST" && path === "/api/checkouts") {
      const b = (body ?? {}) as Record<string, unknown>;
      if (!Number.isInteger(b.amount) || (b.amount as number) <= 0)
        return send(400, { message: "amount must be a positive integer in cents" });
      if (b.currency !== "ZAR") return send(400, { message: "currency must be ZAR" });
      const checkoutId = id("ch_");
      const checkout: FakeCheckout = {
        id: checkoutId,
        redirectUrl: `https://c.yoco.com/checkout/${checkoutId}`,
        status: "created",
        amount: b.amount as number,
        currency: "ZAR",
        paymentId: null,
        successUrl: b.successUrl as string | undefined,
        cancelUrl: b.cancelUrl as string | undefined,
        failureUrl: b.failureUrl as string | undefined,
        metadata: { ...((b.metadata as Record<string, string>) ?? {}), checkoutId },
        merchantId: "m_fake",
        processingMode: mode,
      };
      checkouts.set(checkoutId, checkout);
      return remember(200, checkout);
    }

    const read = /^\/api\/checkouts\/([^/]+)$/.exec(path);
    if (req.method === "GET" && read) {
      const checkout = checkouts.get(decodeURIComponent(read[1]!));
      return checkout ? send(200, checkout) : send(404, { message: "Checkout not found" });
    }

    const refund = /^\/api\/checkouts\/([^/]+)\/refund$/.exec(path);
    if (req.method === "POST" && refund) {
      const checkout = checkouts.get(decodeURIComponent(refund[1]!));
      if (!checkout) return send(404, { message: "Checkout not found" });
      if (checkout.processingMode !== "live") return send(403, { message: "Only live-mode checkouts can be refunded" });
      if (checkout.status !== "completed") return send(409, { message: "Checkout has not been paid" });
      const amount = (body as { amount?: unknown } | undefined)?.amount;
      if (
        amount !== undefined &&
        (typeof amount !== "number" || !Number.isInteger(amount) || amount < 1 || amount > checkout.amount)
      ) {
        return send(400, { message: "Invalid refund amount" });
      }
      const refundId = id("rfd_");
      refunds.set(checkout.id, [
        ...(refunds.get(checkout.id) ?? []),
        { refundId, amount: amount as number | undefined },
      ]);
      return remember(202, { id: checkout.id, refundId, message: "Refund requested", status: "pending" });
    }

    send(404, { message: "Not found" });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const deliver = (type: string, payload: Record<string, unknown>): SignedDelivery => {
    const event = { id: id("evt_"), type, createdDate: new Date().toISOString(), payload };
    const body = JSON.stringify(event);
    return { headers: signWebhook(webhookSecret, `msg_${randomUUID()}`, body), body };
  };

  return {
    base: `http://127.0.0.1:${port}`,
    webhookSecret,
    secretKey,
    checkouts,
    requests,
    failNext: (count, status) => faults.push(...Array.from({ length: count }, () => ({ status }))),
    delayNext: (count, ms) => delays.push(...Array.from({ length: count }, () => ms)),
    pay(checkoutId) {
      const checkout = checkouts.get(checkoutId);
      if (!checkout) throw new Error(`no checkout ${checkoutId}`);
      checkout.status = "completed";
      checkout.paymentId = id("p_");
      return deliver("payment.succeeded", {
        id: checkout.paymentId,
        type: "payment",
        createdDate: new Date().toISOString(),
        amount: checkout.amount,
        currency: checkout.currency,
        status: "succeeded",
        mode: checkout.processingMode,
        paymentMethodDetails: {
          type: "card",
          card: { maskedCard: "************4242", scheme: "visa", expiryMonth: 11, expiryYear: 29 },
        },
        metadata: checkout.metadata,
      });
    },
    refunds,
    refundFailed(checkoutId) {
      const checkout = checkouts.get(checkoutId);
      const last = refunds.get(checkoutId)?.at(-1);
      if (!checkout?.paymentId || !last) throw new Error(`no refund was asked of ${checkoutId}`);
      return deliver("refund.failed", {
        id: last.refundId,
        type: "refund",
        amount: last.amount ?? checkout.amount,
        currency: checkout.currency,
        paymentId: checkout.paymentId,
        status: "failed",
        mode: checkout.processingMode,
        metadata: { checkoutId },
      });
    },
    refundSucceeded(checkoutId) {
      const checkout = checkouts.get(checkoutId);
      if (!checkout?.paymentId) throw new Error(`checkout ${checkoutId} was not paid`);
      const last = refunds.get(checkoutId)?.at(-1);
      if (!last || last.amount === undefined || last.amount >= checkout.amount) checkout.status = "refunded";
      return deliver("refund.succeeded", {
        id: last?.refundId ?? id("rfd_"),
        type: "refund",
        amount: last?.amount ?? checkout.amount,
        currency: checkout.currency,
        paymentId: checkout.paymentId,
        status: "succeeded",
        mode: checkout.processingMode,
        metadata: { checkoutId },
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
