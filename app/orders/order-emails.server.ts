import type { OutgoingEmail } from "~/email/outbox.server";
import { formatRand } from "~/lib/money";
import type { OrderRow } from "./orders.server";

/** The buyer's confirmation: what was bought, the amount, the reference and the processing promise. */
export function customerConfirmationEmail(order: OrderRow, siteUrl: string, contact: { email: string; phone: string }): OutgoingEmail {
  return {
    to: order.customerEmail,
    subject: `Your Honey Bee order ${order.reference} is confirmed`,
    dedupeKey: `order-confirmation:${order.id}`,
    orderId: order.id,
    text: [
      `Hi ${order.customerFirstName},`,
      "",
      "Thank you for your order. Your payment was successful.",
      "",
      `Item: ${order.itemName}`,
      `Amount: ${formatRand(order.amountCents)}`,
      `Order reference: ${order.reference}`,
      "",
      "Your order will be processed within 1-2 business days. We will email you with status updates.",
      "",
      `Questions? Reply to this email, write to ${contact.email}, call ${contact.phone} or visit ${siteUrl}/contact, and quote your order reference.`,
      "",
      "Honey Bee Sustainable Fashion",
    ].join("\n"),
  };
}

/** The owner's notice of a paid order, with what is needed to fulfil it. */
export function ownerOrderNotice(order: OrderRow, ownerEmail: string): OutgoingEmail {
  return {
    to: ownerEmail,
    subject: `New paid order ${order.reference}: ${order.itemName} (${formatRand(order.amountCents)})`,
    dedupeKey: `order-owner-notice:${order.id}`,
    orderId: order.id,
    text: [
      `Order ${order.reference} was paid.`,
      "",
      `Item: ${order.itemName}`,
      `Type: ${order.orderType}`,
      `Amount: ${formatRand(order.amountCents)}`,
      `Customer: ${order.customerFirstName} ${order.customerLastName} <${order.customerEmail}>`,
      `Phone: ${order.customerPhone}`,
      "Address:",
      order.customerAddress,
      "",
      `Payment provider: ${order.provider}${order.providerPaymentId ? ` (payment ${order.providerPaymentId})` : ""}`,
    ].join("\n"),
  };
}

/** The owner's alert: a paid order the shop could not honour as sold. */
export function ownerAttentionNotice(order: OrderRow, mail: { siteUrl: string; ownerEmail: string }): OutgoingEmail {
  return {
    to: mail.ownerEmail,
    subject: `Needs attention: order ${order.reference} (${order.itemName})`,
    dedupeKey: `order-attention:${order.id}`,
    orderId: order.id,
    text: [
      `Order ${order.reference} was paid (${formatRand(order.amountCents)}), but it needs you:`,
      "",
      order.attentionReason ?? "",
      "",
      `Customer: ${order.customerFirstName} ${order.customerLastName} <${order.customerEmail}>, ${order.customerPhone}`,
      "",
      `Open the order to refund it in one click: ${mail.siteUrl}/admin/orders/${order.id}`,
    ].join("\n"),
  };
}

const FULFILMENT_WORDS: Record<string, string> = {
  posted: "is on its way: we have posted it",
  collected: "has been collected",
  "service done": "is complete",
};

/** The buyer's notice that the owner fulfilled the order (posted, collected, or the service done). */
export function fulfilledEmail(order: OrderRow, method: string): OutgoingEmail {
  return {
    to: order.customerEmail,
    subject: `Your Honey Bee order ${order.reference} ${FULFILMENT_WORDS[method] ?? "is complete"}`,
    dedupeKey: `order-fulfilled:${order.id}`,
    orderId: order.id,
    text: [
      `Hi ${order.customerFirstName},`,
      "",
      `Your order ${order.itemName} ${FULFILMENT_WORDS[method] ?? "is complete"}.`,
      `Order reference: ${order.reference}`,
      "",
      "Thank you for choosing slow fashion.",
      "",
      "Honey Bee Sustainable Fashion",
    ].join("\n"),
  };
}

/** The buyer's notice of a refund; `key` makes each refund's email count once. */
export function refundEmail(order: OrderRow, amountCents: number, key: string): OutgoingEmail {
  return {
    to: order.customerEmail,
    subject: `Refund for your Honey Bee order ${order.reference}`,
    dedupeKey: `order-refund:${order.id}:${key}`,
    orderId: order.id,
    text: [
      `Hi ${order.customerFirstName},`,
      "",
      `We have refunded ${formatRand(amountCents)} for ${order.itemName}. It goes back to the card you paid with; your bank may take a few days to show it.`,
      `Order reference: ${order.reference}`,
      "",
      "Honey Bee Sustainable Fashion",
    ].join("\n"),
  };
}
