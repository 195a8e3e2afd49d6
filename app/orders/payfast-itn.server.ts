import type { AppContext } from "~/context.server";
import { formatRand } from "~/lib/money";
import { subscriptionForNotification } from "~/memberships/card-subscriptions.server";
import { readItn, validateItn } from "~/payments/payfast/itn.server";
import { alertOwner, applyCardNotification } from "./card-charges.server";
import { holdNotification, settleHeld } from "./payfast-held.server";

type Context = Pick<AppContext, "db" | "config" | "clock" | "clientIp">;

const answer = (status: number, text: string) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });

/**
 * POST /api/payfast/itn: a notification is checked in the contract's order (§4) before it changes
 * anything: the signature with the passphrase, the address it came from, the amount against the price
 * agreed for that subscription (and the merchant id), then PayFast's validate call. A forged or
 * misaddressed one is answered 4xx; a wrong amount or an INVALID answer 200 (PayFast must not resend
 * it) with an alert for the owner; a validate call that does not answer 503, so PayFast sends it again.
 */
export async function handlePayfastItn(request: Request, context: Context): Promise<Response> {
  const now = context.clock.now();
  const payfast = context.config.payfast;
  if (!payfast) return answer(404, "PayFast is not configured");
  const body = await request.text();
  const read = readItn(body, context.clientIp, payfast);
  if (!read.ok) {
    await alertOwner(context.db, `Refused a PayFast notification: ${read.reason}`, now);
    return answer(read.status, read.reason);
  }
  const { notification } = read;
  const subscription = await subscriptionForNotification(context.db, notification.token, notification.checkoutRef);
  if (!subscription || subscription.provider !== "payfast") {
    await alertOwner(
      context.db,
      `Refused a PayFast notification (payment ${notification.paymentId}): it names no subscription of ours`,
      now,
    );
    return answer(200, "unknown subscription");
  }
  if (read.merchantId !== payfast.merchantId) {
    await alertOwner(
      context.db,
      `Refused a PayFast notification (payment ${notification.paymentId}): it is for merchant ${read.merchantId}, not ours`,
      now,
    );
    return answer(200, "not our merchant");
  }
  if (notification.status === "COMPLETE" && Math.abs(notification.amountCents - subscription.amountCents) > 1) {
    await alertOwner(
      context.db,
      `Refused a PayFast notification (payment ${notification.paymentId}): it is for ` +
        `${formatRand(notification.amountCents)}, but the price agreed is ${formatRand(subscription.amountCents)}; ` +
        "nothing was extended",
      now,
      { subscriptionId: subscription.id },
    );
    return answer(200, "amount does not match");
  }
  const validation = await validateItn(read.pairs, payfast);
  if (validation === "unavailable") {
    console.warn(
      `[payfast] notification ${notification.paymentId}: the validate call did not answer; held, and PayFast will resend`,
    );
    // Kept, not lost: the sweeper asks PayFast again, and a resend still applies it once (decision 131).
    await holdNotification(
      context.db,
      { paymentId: notification.paymentId, subscriptionId: subscription.id, body },
      now,
    );
    return answer(503, "validation unavailable");
  }
  if (validation === "INVALID") {
    await alertOwner(
      context.db,
      `Refused a PayFast notification (payment ${notification.paymentId}): PayFast's validate call answered INVALID`,
      now,
    );
    return answer(200, "invalid");
  }
  const outcome = await applyCardNotification(context, subscription, notification);
  await settleHeld(context.db, notification.paymentId, "applied", now);
  return answer(200, outcome);
}
