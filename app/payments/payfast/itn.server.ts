import net from "node:net";
import type { PayfastConfig } from "~/config.server";
import { itnParamString, itnSignature, sameSignature } from "./signature";
import { centsFromRand, type CardNotification } from "./subscriptions";

const MAX_BODY = 16 * 1024;

export type ItnRead =
  | { ok: true; notification: CardNotification; merchantId: string; pairs: [string, string][] }
  | { ok: false; status: number; reason: string };

/**
 * The first two checks of a notification (payments-payfast.md §4), before anything is looked up: its
 * signature over the fields as posted, with the passphrase, and the address it came from. A notification
 * that fails either is answered 4xx and goes no further.
 */
export function readItn(
  rawBody: string,
  clientIp: string,
  config: Pick<PayfastConfig, "passphrase" | "itnSources">,
): ItnRead {
  if (rawBody.length > MAX_BODY) return { ok: false, status: 413, reason: "the notification is too large" };
  const pairs = [...new URLSearchParams(rawBody).entries()];
  const fields = Object.fromEntries(pairs);
  const given = fields.signature ?? "";
  if (!/^[0-9a-f]{32}$/.test(given) || !sameSignature(given, itnSignature(pairs, config.passphrase)))
    return { ok: false, status: 400, reason: "its signature does not match" };
  if (!sourceAllowed(clientIp, config.itnSources))
    return { ok: false, status: 403, reason: `it came from ${clientIp}, which is not on PAYFAST_ITN_SOURCES` };
  const amountCents = centsFromRand(fields.amount_gross ?? "");
  const paymentId = fields.pf_payment_id ?? "";
  const token = fields.token ?? "";
  if (amountCents === null || !paymentId || !token || paymentId.length > 100 || token.length > 100)
    return { ok: false, status: 400, reason: "it lacks a payment id, token or amount" };
  const status =
    fields.payment_status === "COMPLETE" || fields.payment_status === "CANCELLED" ? fields.payment_status : "OTHER";
  return {
    ok: true,
    merchantId: fields.merchant_id ?? "",
    pairs,
    notification: { paymentId, token, checkoutRef: fields.m_payment_id ?? "", status, amountCents, fields },
  };
}

/** Whether an address is one of the configured addresses or CIDR ranges (an IPv4 client may arrive as ::ffff:a.b.c.d). */
export function sourceAllowed(clientIp: string, sources: string[]): boolean {
  const address = clientIp.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  const family = net.isIP(address);
  if (!family) return false;
  const list = new net.BlockList();
  for (const source of sources) {
    const [base, bits] = source.split("/");
    const type = net.isIP(base ?? "") === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(base!, type);
    else list.addSubnet(base!, Number(bits), type);
  }
  return list.check(address, family === 6 ? "ipv6" : "ipv4");
}

export type ValidationAnswer = "VALID" | "INVALID" | "unavailable";

/**
 * The last check: PayFast's own server confirms it sent these fields (the string without signature or
 * passphrase). A timeout or an error is "unavailable": the notification is refused with a 503 so that
 * PayFast sends it again.
 */
export async function validateItn(
  pairs: [string, string][],
  config: Pick<PayfastConfig, "validateUrl" | "validateTimeoutMs">,
  doFetch: typeof fetch = fetch,
): Promise<ValidationAnswer> {
  try {
    const response = await doFetch(config.validateUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: itnParamString(pairs),
      signal: AbortSignal.timeout(config.validateTimeoutMs),
    });
    if (!response.ok) return "unavailable";
    const answer = (await response.text()).trim();
    return answer === "VALID" ? "VALID" : answer === "INVALID" ? "INVALID" : "unavailable";
  } catch {
    return "unavailable";
  }
}
