import type { Database } from "~/db/client.server";
import { countLines } from "./line-fulfilment";
import { ownerLines } from "./line-fulfilment.server";
import { lineChargedCents } from "./line-money";
import { lineRefundChoices } from "./line-refunds.server";
import { findOrderForAdmin } from "./orders-admin.server";
import { historyWords } from "./payment-words";

/** The owner's page of one order, as plain values for the page: undefined when there is no such order. */
export async function adminOrderView(db: Database, id: string) {
  const found = await findOrderForAdmin(db, id);
  if (!found) return undefined;
  const { order, lines, refunds, history, emails } = found;
  const toSend = (await ownerLines(db, order.id)).filter((l) => l.state !== "none");
  const refundedAt =
    refunds
      .filter((r) => r.status === "succeeded")
      .map((r) => (r.completedAt ?? r.createdAt).toISOString())
      .sort()
      .at(-1) ?? null;
  const waiting = refunds
    .filter((r) => r.status === "requested" || r.status === "pending")
    .reduce((sum, r) => sum + r.amountCents, 0);
  return {
    order: {
      id: order.id,
      reference: order.reference,
      createdAt: order.createdAt.toISOString(),
      completedAt: order.completedAt?.toISOString() ?? null,
      status: order.status,
      orderType: order.orderType,
      itemName: order.itemName,
      amountCents: order.amountCents,
      refundedCents: order.refundedCents,
      refundedAt,
      refundableCents: Math.max(0, order.amountCents - order.refundedCents - waiting),
      needsAttention: order.needsAttention,
      attentionReason: order.attentionReason,
      fulfilment: order.fulfilmentStatus,
      fulfilmentMethod: order.fulfilmentMethod,
      fulfilledAt: order.fulfilledAt?.toISOString() ?? null,
      lines: countLines(toSend.map((l) => l.state)),
      customer: {
        name: `${order.customerFirstName} ${order.customerLastName}`,
        email: order.customerEmail,
        phone: order.customerPhone,
        address: order.customerAddress,
      },
      provider: order.provider,
      usedDiscountCode: order.discountCodeId !== null,
      checkoutId: order.yocoCheckoutId,
      paymentId: order.providerPaymentId,
      note: order.ownerNote ?? "",
    },
    lines: lines.map((l) => ({
      id: l.id,
      name: l.displayName,
      quantity: l.quantity,
      unitPriceCents: l.unitPriceCents,
      attendees: l.attendeeNames ?? [],
      discountCents: l.discountCents,
      discountReason: l.discountReason,
      chargedCents: lineChargedCents(l),
    })),
    refunds: refunds.map((r) => ({
      id: r.id,
      amountCents: r.amountCents,
      status: r.status,
      restock: r.restock,
      createdAt: r.createdAt.toISOString(),
      reason: r.failureReason,
    })),
    history: history.map((h) => ({ ...h, summary: historyWords(h.summary, order.provider) })),
    emails: emails.map((e) => ({
      ...e,
      createdAt: e.createdAt.toISOString(),
      sentAt: e.sentAt?.toISOString() ?? null,
    })),
    lineRefunds: await lineRefundChoices(db, order.id),
    // Several lines to send are marked each on its own (issue 39); one is marked with one press, as before.
    fulfilmentLines:
      toSend.length > 1 ? toSend.map((l) => ({ ...l, fulfilledAt: l.fulfilledAt?.toISOString() ?? null })) : [],
  };
}

export type AdminOrderView = NonNullable<Awaited<ReturnType<typeof adminOrderView>>>;
