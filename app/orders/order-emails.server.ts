import type { OutgoingEmail } from "~/email/outbox.server";
import { formatRand } from "~/lib/money";
import type { OrderRow } from "./orders.server";

/** The buyer's confirmation: what was bought, the amount, the reference and the processing promise. */
export function customerConfirmationEmail(order: OrderRow, siteUrl: string, contact: { email: string; phone: string }): OutgoingEmail {
  return {
    to: order.customerEmail,
    subject: `Your Honey Bee order ${order.reference} is confirmed`,
    dedupeKey: `order-confirmation:${order.id}`,
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
