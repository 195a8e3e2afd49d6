import type { AppContext } from "~/context.server";
import { findMember } from "~/memberships/member-row.server";
import { renewalTierSlug } from "~/memberships/members.server";
import type { PaymentProvider } from "~/payments/provider";
import { paymentProvider } from "~/payments/providers.server";
import { sendToPaymentPage } from "./checkout-action.server";
import { newBuyerBinding } from "./order-access.server";
import { createPendingOrder } from "./orders.server";
import { findSellable } from "./sellable.server";

/**
 * A member's renewal: a pending membership order for the tier their next month is for, priced by the
 * server from that tier as it is now, with the member's details, and the provider's payment page to
 * send them to. Its payment extends this member (orders.member_id), whatever email they pay with.
 */
export async function startRenewalCheckout(
  context: Pick<AppContext, "db" | "config" | "clock">,
  memberId: number,
  provider: PaymentProvider = paymentProvider(context.config),
): Promise<{ ok: true; redirectUrl: string; buyerCookie: string } | { ok: false; reason: string }> {
  const member = await findMember(context.db, memberId);
  if (!member) return { ok: false, reason: "We could not find your membership." };
  const now = context.clock.now();
  const found = await findSellable(context.db, "membership", renewalTierSlug(member), now);
  if (!found.ok) return { ok: false, reason: `${found.reason} Please choose another plan on your account page.` };
  const [firstName, ...rest] = member.name.split(/\s+/);
  // This browser pays, so it sees the renewed membership on the confirmation page (decision 106).
  const buyer = newBuyerBinding(context);
  const order = await createPendingOrder(context.db, {
    item: found.item,
    customer: {
      firstName: firstName || member.name,
      lastName: rest.join(" "),
      email: member.email,
      phone: member.phone,
      address: "",
    },
    provider: provider.name,
    sessionId: null,
    now,
    holdMinutes: context.config.payment.stockHoldMinutes,
    // A membership has no stock to hold, so no per-client cap applies.
    clientKey: null,
    memberId: member.id,
    buyer: buyer.row,
  });
  const sent = await sendToPaymentPage(context, order, provider);
  if (!sent.ok) return { ok: false, reason: sent.toast.description ?? sent.toast.title };
  return { ok: true, redirectUrl: sent.redirectUrl, buyerCookie: buyer.cookie };
}
