import { createHash } from "node:crypto";

/**
 * PayFast's signatures (/work/shared/payments-payfast.md §3): MD5 over `key=value` pairs encoded the
 * way PHP's urlencode does it. The three kinds differ only in which pairs, in what order, and whether
 * empty values count, so each is its own function rather than one with switches.
 */
export function pfEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");

/** The order PayFast signs a payment form in (not alphabetical). */
export const FORM_FIELD_ORDER = [
  "merchant_id",
  "merchant_key",
  "return_url",
  "cancel_url",
  "notify_url",
  "fica_idnumber",
  "name_first",
  "name_last",
  "email_address",
  "cell_number",
  "m_payment_id",
  "amount",
  "item_name",
  "item_description",
  "custom_int1",
  "custom_int2",
  "custom_int3",
  "custom_int4",
  "custom_int5",
  "custom_str1",
  "custom_str2",
  "custom_str3",
  "custom_str4",
  "custom_str5",
  "email_confirmation",
  "confirmation_address",
  "payment_method",
  "subscription_type",
  "billing_date",
  "recurring_amount",
  "frequency",
  "cycles",
  "subscription_notify_email",
  "subscription_notify_webhook",
  "subscription_notify_buyer",
] as const;

export type FormField = (typeof FORM_FIELD_ORDER)[number];

/** The form's fields in signature order, trimmed, empty ones left out ("0" is kept: `cycles=0` is signed). */
export function orderedFormFields(fields: Partial<Record<FormField, string>>): [FormField, string][] {
  return FORM_FIELD_ORDER.flatMap((key) => {
    const value = fields[key]?.trim();
    return value === undefined || value === "" ? [] : [[key, value] as [FormField, string]];
  });
}

export function formSignature(fields: Partial<Record<FormField, string>>, passphrase: string): string {
  const pairs = orderedFormFields(fields).map(([k, v]) => `${k}=${pfEncode(v)}`);
  return md5(`${pairs.join("&")}&passphrase=${pfEncode(passphrase.trim())}`);
}

/**
 * The string an ITN is signed over and validated with: every posted pair in the order received, empty
 * ones included, up to the signature. `withPassphrase` gives the signed form; without it, the body
 * PayFast's validate endpoint expects.
 */
export function itnParamString(pairs: [string, string][], passphrase?: string): string {
  const before: string[] = [];
  for (const [key, value] of pairs) {
    if (key === "signature") break;
    before.push(`${key}=${pfEncode(value)}`);
  }
  if (passphrase !== undefined) before.push(`passphrase=${pfEncode(passphrase.trim())}`);
  return before.join("&");
}

export function itnSignature(pairs: [string, string][], passphrase: string): string {
  return md5(itnParamString(pairs, passphrase));
}

/** The subscriptions API's signature: headers, body and query together, empties dropped, sorted by name. */
export function apiSignature(values: Record<string, string | number | undefined>, passphrase: string): string {
  const all = { ...values, passphrase };
  const pairs = Object.entries(all)
    .filter(([key, value]) => key !== "testing" && key !== "signature" && value !== undefined && String(value) !== "")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${pfEncode(String(value))}`);
  return md5(pairs.join("&"));
}

/** Compares two hex signatures without leaking where they differ. */
export function sameSignature(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
