import type { PayfastConfig } from "~/config.server";
import { apiSignature } from "./signature";
import { SubscriptionApiError, type SubscriptionsApi, type SubscriptionState } from "./subscriptions";

/** PayFast's timestamp: South African time with its offset, as its API expects (`2025-07-01T10:00:00+02:00`). */
export function payfastTimestamp(at: Date): string {
  const sa = new Date(at.getTime() + 2 * 3_600_000);
  return `${sa.toISOString().slice(0, 19)}+02:00`;
}

/** The day part of PayFast's `run_date` ("2025-08-01T00:00:00+02:00"), which is already South African. */
const dayOf = (value: unknown) =>
  typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : "";

/**
 * PayFast's subscriptions API (payments-payfast.md §5): every call signed over its headers and body
 * with the passphrase; the sandbox takes `?testing=true`. A refusal or an unreachable API is a
 * SubscriptionApiError; nothing is retried here (the caller decides when to ask again).
 */
export function createPayfastSubscriptionsApi(
  config: Pick<PayfastConfig, "apiUrl" | "merchantId" | "passphrase" | "sandbox">,
  options: { fetch?: typeof fetch; now?: () => Date; timeoutMs?: number } = {},
): SubscriptionsApi {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());

  async function call(method: string, token: string, action: string, body?: Record<string, string | number>) {
    const headers: Record<string, string> = {
      "merchant-id": config.merchantId,
      version: "v1",
      timestamp: payfastTimestamp(now()),
    };
    headers.signature = apiSignature({ ...headers, ...body }, config.passphrase);
    const url = `${config.apiUrl}/subscriptions/${encodeURIComponent(token)}/${action}${config.sandbox ? "?testing=true" : ""}`;
    let response: Response;
    try {
      response = await doFetch(url, {
        method,
        headers: body
          ? { ...headers, "Content-Type": "application/json" }
          : { ...headers, ...(method === "GET" ? {} : { "Content-Length": "0" }) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new SubscriptionApiError(`PayFast could not be reached (${(error as Error).message})`);
    }
    const json = (await response.json().catch(() => null)) as {
      status?: string;
      data?: { response?: unknown; message?: string };
    } | null;
    if (!response.ok || json?.status !== "success") {
      const message = json?.data?.message ?? `PayFast answered ${response.status}`;
      throw new SubscriptionApiError(message, response.status);
    }
    return json.data?.response;
  }

  return {
    async fetch(token): Promise<SubscriptionState> {
      const data = (await call("GET", token, "fetch")) as Record<string, unknown> | undefined;
      const statusText = typeof data?.status_text === "string" ? data.status_text : String(data?.status ?? "");
      return {
        token,
        active: data?.status === 1 || statusText === "ACTIVE",
        statusText,
        amountCents: Number(data?.amount ?? 0),
        runDate: dayOf(data?.run_date),
      };
    },
    async cancel(token) {
      await call("PUT", token, "cancel");
    },
    async updateAmount(token, amountCents) {
      await call("PATCH", token, "update", { amount: amountCents });
    },
    async moveRunDate(token, day) {
      await call("PATCH", token, "update", { run_date: day });
    },
    async pause(token, cycles) {
      await call("PUT", token, "pause", { cycles });
    },
    async unpause(token) {
      await call("PUT", token, "unpause");
    },
  };
}
