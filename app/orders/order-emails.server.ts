import { renderEmail, escapeHtml, type EmailBlock } from "~/email/layout.server";
import type { EmailAttachment } from "~/email/outbox.server";
import type { ShopContact } from "~/email/shop-contact.server";
import { describeSession } from "~/events/sessions.server";
import { formatRand } from "~/lib/money";
import { calendarFile } from "~/tickets/calendar";
import { ticketUrl } from "~/tickets/codes";
import { formatShortCode } from "~/tickets/short-code";
import type { IssuedTicket } from "~/tickets/issue.server";
import { qrPng } from "~/tickets/qr.server";
import type { OrderEmail } from "./order-email-queue.server";
import type { OrderRow } from "./orders.server";
import { paidByWords } from "./payment-words";

const customerName = (order: OrderRow) => order.customerFirstName;

/** The blocks and files that present one ticket: QR inline by cid, the code, when and where, the .ics. */
async function ticketParts(
  ticket: IssuedTicket,
  total: number,
  siteUrl: string,
  now: Date,
): Promise<{ block: EmailBlock; files: EmailAttachment[] }> {
  const url = ticketUrl(siteUrl, ticket.code);
  const cid = `ticket-${ticket.seatNumber}@honeybee`;
  const when = ticket.startsAt ? describeSession(ticket.startsAt, ticket.endsAt) : "Date to be announced";
  const doorCode = formatShortCode(ticket.shortCode);
  const label = total > 1 ? `Seat ${ticket.seatNumber} of ${total}` : `Seat ${ticket.seatNumber}`;
  const facts: [string, string][] = [
    ["Event", ticket.eventTitle],
    ["Ticket", `${ticket.ticketType}, ${label}`],
    ["Name", ticket.holderName],
    ["When", when],
    ["Where", ticket.location],
    ["Code", ticket.code],
  ];
  const sans = "'DM Sans',Helvetica,Arial,sans-serif";
  const qrStyle = "display:block;margin:0 auto;width:220px;max-width:100%;height:auto;";
  const doorCodeStyle = "font-family:monospace;font-size:26px;letter-spacing:2px;white-space:nowrap;";
  const factsHtml = facts
    .map(
      ([k, v]) =>
        `<strong>${escapeHtml(k)}:</strong> ` +
        (k === "Code"
          ? `<span style="font-family:monospace;font-size:16px;word-break:break-all;">${escapeHtml(v)}</span>`
          : escapeHtml(v)),
    )
    .join("<br>");
  // Rows joined by newlines: the same HTML the one multi-line template gave, in lines that fit.
  const html = [
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" ` +
      `style="margin:0 0 24px;border:2px solid #F2B705;border-radius:12px;">`,
    `<tr><td style="padding:16px;text-align:center;">` +
      `<img src="cid:${cid}" width="220" height="220" alt="QR code for ticket ${escapeHtml(ticket.code)}" style="${qrStyle}"></td></tr>`,
    `<tr><td style="padding:0 16px 16px;text-align:center;font:15px/1.4 ${sans};color:#1F1A17;">` +
      `Door code<br><strong style="${doorCodeStyle}">${escapeHtml(doorCode)}</strong></td></tr>`,
    `<tr><td style="padding:0 16px 16px;font:15px/1.5 ${sans};color:#1F1A17;">${factsHtml}` +
      `<br><a href="${escapeHtml(url)}" style="color:#A3431F;">Show this ticket on your phone</a></td></tr></table>`,
  ].join("\n");
  const text = [
    `${ticket.eventTitle}: ${label}`,
    `Door code: ${doorCode}`,
    ...facts.slice(1).map(([k, v]) => `${k}: ${v}`),
    `Your ticket: ${url}`,
  ].join("\n");
  const files: EmailAttachment[] = [
    {
      filename: `ticket-${ticket.seatNumber}.png`,
      contentType: "image/png",
      contentBase64: (await qrPng(url)).toString("base64"),
      cid,
    },
  ];
  if (ticket.startsAt && ticket.seatNumber === 1) {
    const ics = calendarFile({
      uid: `${ticket.code}@honeybee-tickets`,
      start: ticket.startsAt,
      end: ticket.endsAt ?? new Date(ticket.startsAt.getTime() + 3 * 3_600_000),
      summary: ticket.eventTitle,
      location: ticket.location,
      description: `${ticket.ticketType}. Show your ticket at the door: ${url}`,
      url,
      now,
    });
    files.push({
      filename: "event.ics",
      contentType: "text/calendar; charset=utf-8; method=PUBLISH",
      contentBase64: Buffer.from(ics).toString("base64"),
    });
  }
  return { block: { kind: "raw", html, text }, files };
}

/** The buyer's confirmation: what was bought, the amount, the reference, and each ticket when there are tickets. */
export async function customerConfirmationEmail(
  order: OrderRow,
  siteUrl: string,
  extras: { tickets?: IssuedTicket[]; contact: ShopContact; now: Date; orderPage: string },
): Promise<OrderEmail> {
  const tickets = extras.tickets ?? [];
  const blocks: EmailBlock[] = [
    { kind: "paragraph", text: `Hi ${customerName(order)},` },
    { kind: "paragraph", text: "Thank you for your order. Your payment was successful." },
    {
      kind: "facts",
      rows: [
        ["Item", order.itemName],
        ["Amount", formatRand(order.amountCents)],
      ],
    },
  ];
  const attachments: EmailAttachment[] = [];
  if (tickets.length) {
    blocks.push({ kind: "heading", text: tickets.length === 1 ? "Your ticket" : "Your tickets" });
    blocks.push({
      kind: "paragraph",
      text:
        "Show the QR code at the door, on your phone or printed, or say the door code under it. The calendar file " +
        "adds the date to your phone.",
    });
    for (const ticket of tickets) {
      const parts = await ticketParts(ticket, tickets.length, siteUrl, extras.now);
      blocks.push(parts.block);
      attachments.push(...parts.files);
    }
  } else {
    blocks.push({
      kind: "paragraph",
      text: "Your order will be processed within 1-2 business days. We will email you with status updates.",
    });
  }
  blocks.push({
    kind: "paragraph",
    text:
      "Your order page shows this order, and your tickets if you bought any, whenever you need them. It is " +
      "private to you: keep this email.",
  });
  blocks.push({ kind: "button", href: extras.orderPage, label: "Your order page" });
  blocks.push({
    kind: "paragraph",
    text: `Questions? Reply to this email or visit ${siteUrl}/contact and quote your order reference.`,
  });
  const { html, text } = renderEmail({
    preheader: tickets.length ? `Your ticket for ${tickets[0]!.eventTitle}` : `Order ${order.reference} is confirmed`,
    heading: "Your order is confirmed",
    reference: order.reference,
    blocks,
    contact: extras.contact,
  });
  return {
    to: order.customerEmail,
    subject: `Your Honey Bee order ${order.reference} is confirmed`,
    dedupeKey: `order-confirmation:${order.id}`,
    orderId: order.id,
    text,
    html,
    attachments,
  };
}

/** The owner's notice of a paid order, with what is needed to fulfil it. */
export function ownerOrderNotice(
  order: OrderRow,
  ownerEmail: string,
  contact: ShopContact,
  ticketCount = 0,
): OrderEmail {
  const rows: [string, string][] = [
    ["Item", order.itemName],
    ["Type", order.orderType],
    ["Amount", formatRand(order.amountCents)],
    ["Customer", `${order.customerFirstName} ${order.customerLastName} <${order.customerEmail}>`],
    ["Phone", order.customerPhone],
    ["Address", order.customerAddress],
    [
      "Payment provider",
      // A member's perk or a code made the order free (issue 40): no provider saw it.
      order.provider === "free"
        ? paidByWords(order.provider, order.discountCodeId !== null)
        : `${order.provider}${order.providerPaymentId ? ` (payment ${order.providerPaymentId})` : ""}`,
    ],
  ];
  if (ticketCount) rows.push(["Tickets issued", String(ticketCount)]);
  const { html, text } = renderEmail({
    preheader: `${order.itemName}, ${formatRand(order.amountCents)}`,
    heading: `Order ${order.reference} was paid`,
    blocks: [{ kind: "facts", rows }],
    contact,
  });
  return {
    to: ownerEmail,
    subject: `New paid order ${order.reference}: ${order.itemName} (${formatRand(order.amountCents)})`,
    dedupeKey: `order-owner-notice:${order.id}`,
    orderId: order.id,
    text,
    html,
  };
}

/** The owner's notice that an order needs her attention (for example a paid order whose unit was gone). */
export function ownerAttentionNotice(
  order: OrderRow,
  ownerEmail: string,
  reason: string,
  contact: ShopContact,
): OrderEmail {
  const { html, text } = renderEmail({
    preheader: reason,
    heading: `Order ${order.reference} needs your attention`,
    blocks: [
      { kind: "paragraph", text: reason },
      {
        kind: "facts",
        rows: [
          ["Item", order.itemName],
          ["Amount", formatRand(order.amountCents)],
          ["Customer", `${order.customerFirstName} ${order.customerLastName} <${order.customerEmail}>`],
          ["Phone", order.customerPhone],
        ],
      },
    ],
    contact,
  });
  return {
    to: ownerEmail,
    subject: `Needs attention: order ${order.reference}`,
    dedupeKey: `order-attention:${order.id}`,
    orderId: order.id,
    text,
    html,
  };
}

const FULFILMENT_WORDS: Record<string, string> = {
  posted: "Your order is on its way: we have posted it.",
  collected: "Your order was collected. Enjoy it!",
  "service done": "Your booking is complete. Thank you for spending the time with us.",
};

const PART_WORDS: Record<string, string> = {
  posted: "Part of your order is on its way: we have posted the items below.",
  collected: "You collected the items below. Enjoy them!",
  "service done": "The booking below is complete. Thank you for spending the time with us.",
};

/**
 * The buyer's "fulfilled" email: posted, collected or service done. A marking of some lines of a bag's
 * order names them (issue 39): one email per marking, each its own (its lines' ids are in its key).
 */
export function fulfilledEmail(
  order: OrderRow,
  method: string,
  contact: ShopContact,
  part?: { names: string[]; lineIds: number[] },
): OrderEmail {
  const words = (part ? PART_WORDS[method] : FULFILMENT_WORDS[method]) ?? "Your order is complete.";
  const { html, text } = renderEmail({
    preheader: words,
    heading: part ? "Part of your order" : "Your order is complete",
    reference: order.reference,
    blocks: [
      { kind: "paragraph", text: `Hi ${customerName(order)},` },
      { kind: "paragraph", text: words },
      { kind: "facts", rows: part ? part.names.map((name) => ["Item", name]) : [["Item", order.itemName]] },
      { kind: "paragraph", text: "Questions? Reply to this email and quote your order reference." },
    ],
    contact,
  });
  return {
    to: order.customerEmail,
    subject: part
      ? `Part of your Honey Bee order ${order.reference}: ${part.names.length === 1 ? "1 item" : `${part.names.length} items`}`
      : `Your Honey Bee order ${order.reference} is complete`,
    dedupeKey: part ? `order-fulfilled:${order.id}:${part.lineIds.join("-")}` : `order-fulfilled:${order.id}`,
    orderId: order.id,
    text,
    html,
  };
}

/** The buyer's refund email. */
export function refundEmail(order: OrderRow, amountCents: number, contact: ShopContact): OrderEmail {
  const full = amountCents >= order.amountCents;
  const { html, text } = renderEmail({
    preheader: `${formatRand(amountCents)} is on its way back to you`,
    heading: full ? "Your refund" : "Your partial refund",
    reference: order.reference,
    blocks: [
      { kind: "paragraph", text: `Hi ${customerName(order)},` },
      {
        kind: "paragraph",
        text: `We have refunded ${formatRand(amountCents)} of your order. Your bank usually shows it within 5-10 business days.`,
      },
      {
        kind: "facts",
        rows: [
          ["Item", order.itemName],
          ["Paid", formatRand(order.amountCents)],
          ["Refunded", formatRand(amountCents)],
        ],
      },
      { kind: "paragraph", text: "Questions? Reply to this email and quote your order reference." },
    ],
    contact,
  });
  return {
    to: order.customerEmail,
    subject: `Refund for your Honey Bee order ${order.reference}`,
    dedupeKey: `order-refund:${order.id}:${amountCents}:${order.refundedCents}`,
    orderId: order.id,
    text,
    html,
  };
}
