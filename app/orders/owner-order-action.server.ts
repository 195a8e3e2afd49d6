import type { AppContext } from "~/context.server";
import { checkboxFields, textFields, validateForm } from "~/lib/form";
import { formatRand, parseRandToCents } from "~/lib/money";
import type { FulfilmentMethod } from "./fulfilment-methods";
import { ownerFulfils } from "./fulfilment-words";
import { markFulfilled, resendConfirmation, saveOwnerNote } from "./fulfilment.server";
import { fulfilLinesFromForm } from "./line-fulfilment-form.server";
import { refundLineFromForm } from "./line-refund-form.server";
import { findOrderForAdmin } from "./orders-admin.server";
import { ORDER_ACTION_CHECKBOXES, ORDER_ACTION_TEXT_FIELDS, orderActionSchema } from "./refund-schema";
import { requestRefund } from "./refunds.server";

/** What one of the order page's forms did: a toast to show, or the form's error and its status. */
export type OwnerOrderOutcome =
  { ok: true; title: string; description?: string } | { ok: false; intent: string; error: string; status: number };

/**
 * The order page's forms (mark sent, per line or whole; refund, per line or whole; resend the
 * confirmation; the owner's note): validated, then done. Undefined for an unknown order.
 */
export async function ownerOrderAction(
  context: Pick<AppContext, "db" | "config" | "clock">,
  id: string,
  form: FormData,
): Promise<OwnerOrderOutcome | undefined> {
  const values = { ...textFields(form, ORDER_ACTION_TEXT_FIELDS), ...checkboxFields(form, ORDER_ACTION_CHECKBOXES) };
  const checked = validateForm(orderActionSchema, values);
  const back = (title: string, description?: string): OwnerOrderOutcome => ({ ok: true, title, description });
  const refuse = (error: string, status = 400): OwnerOrderOutcome => ({
    ok: false,
    intent: values.intent,
    error,
    status,
  });
  const found = await findOrderForAdmin(context.db, id);
  if (!found) return undefined;
  if (values.intent === "fulfil-lines") {
    const done = await fulfilLinesFromForm(context, id, form);
    return done.ok ? back(done.title, done.description) : refuse(done.error, done.status);
  }
  if (values.intent === "refund-line") {
    const done = await refundLineFromForm(context, id, form);
    return done.ok ? back(done.title, done.description) : refuse(done.error);
  }
  if (!checked.ok) {
    const { intent, key, amount, note } = checked.fieldErrors;
    return refuse(intent ?? key ?? amount ?? note ?? "Enter the amount to refund in rand, e.g. 450 or 450,00.");
  }
  const wanted = checked.data;

  if (wanted.intent === "fulfil") {
    const { method } = wanted;
    if (!ownerFulfils(found.order.orderType))
      return refuse("Tickets are issued and memberships start with the payment: there is nothing to mark.", 409);
    const methods = found.order.orderType === "service" ? ["service done"] : ["posted", "collected"];
    if (!methods.includes(method)) return refuse("Choose whether it was posted or handed over.");
    const outcome = await markFulfilled(context, id, method as FulfilmentMethod);
    if (outcome === "not-paid") return refuse("Only a paid order can be marked fulfilled.", 409);
    const done =
      method === "service done" ? "Marked done" : method === "collected" ? "Marked handed over" : "Marked posted";
    return back(
      outcome === "already" ? "Already marked" : done,
      outcome === "already" ? undefined : "The customer has been emailed.",
    );
  }
  if (wanted.intent === "refund") {
    const cents = parseRandToCents(wanted.amount)!;
    const result = await requestRefund(context, {
      orderId: id,
      amountCents: cents,
      restock: wanted.restock,
      key: wanted.key,
    });
    if (!result.ok) return refuse(result.error, result.field ? 400 : 409);
    if (result.state === "already-requested") return back("Refund already requested");
    return back(
      result.state === "succeeded" ? "Refunded" : "Refund requested",
      result.state === "succeeded"
        ? `${formatRand(cents)} refunded; the customer has been emailed.`
        : "The order shows refund pending until the payment provider confirms it.",
    );
  }
  if (wanted.intent === "resend") {
    const outcome = await resendConfirmation(context, id, wanted.key);
    if (outcome === "not-paid") return refuse("Only a paid order has a confirmation to send.", 409);
    return back("Confirmation sent again");
  }
  await saveOwnerNote(context, id, wanted.note);
  return back("Note saved");
}
