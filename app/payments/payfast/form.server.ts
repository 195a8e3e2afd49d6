import type { PayfastConfig } from "~/config.server";
import { formSignature, orderedFormFields, type FormField } from "./signature";
import { randAmount } from "./subscriptions";

export interface SubscriptionFormRequest {
  /** Our checkout order's id: PayFast's `m_payment_id`, repeated in every notification. */
  checkoutRef: string;
  /** What the member is called at our end: `custom_str1`. */
  memberRef: string;
  amountCents: number;
  itemName: string;
  firstName: string;
  lastName: string;
  email: string;
  /** The first charge is today; PayFast counts the next ones from this day (decision 115). */
  billingDate: string;
  returnUrl: string;
  cancelUrl: string;
  notifyUrl: string;
}

/** Characters PayFast's own samples do not encode, so a signature over them is in doubt (§3): kept out. */
const unsigned = (value: string) =>
  value
    .replace(/[!'()*~]/g, "")
    .replace(/\s+/g, " ")
    .trim();

/**
 * The signed form the buyer's browser posts to PayFast's process URL: a monthly (frequency 3) card
 * subscription with no end (cycles 0), whose first month is charged at once at the same amount.
 */
export function subscriptionForm(
  config: Pick<PayfastConfig, "merchantId" | "merchantKey" | "passphrase" | "processUrl">,
  request: SubscriptionFormRequest,
): { action: string; fields: [string, string][] } {
  const amount = randAmount(request.amountCents);
  const values: Partial<Record<FormField, string>> = {
    merchant_id: config.merchantId,
    merchant_key: config.merchantKey,
    return_url: request.returnUrl,
    cancel_url: request.cancelUrl,
    notify_url: request.notifyUrl,
    name_first: unsigned(request.firstName).slice(0, 100),
    name_last: unsigned(request.lastName).slice(0, 100),
    email_address: request.email,
    m_payment_id: request.checkoutRef,
    amount,
    item_name: unsigned(request.itemName).slice(0, 100),
    custom_str1: request.memberRef,
    payment_method: "cc",
    subscription_type: "1",
    billing_date: request.billingDate,
    recurring_amount: amount,
    frequency: "3",
    cycles: "0",
  };
  const fields: [string, string][] = orderedFormFields(values);
  fields.push(["signature", formSignature(values, config.passphrase)]);
  return { action: config.processUrl, fields };
}
