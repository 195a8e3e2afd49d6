import { renderEmail } from "~/email/layout.server";
import type { OutgoingEmail } from "~/email/outbox.server";
import type { ShopContact } from "~/email/shop-contact.server";

/** The owner's notice of a contact message; its dedupe key (`contact:{id}`) is the caller's, made with the message's id. */
export function ownerContactNotice(
  message: { firstName: string; lastName: string; email: string; subject: string; message: string },
  ownerEmail: string,
  contact: ShopContact,
): Omit<OutgoingEmail, "dedupeKey"> {
  const { html, text } = renderEmail({
    preheader: message.subject,
    heading: "New contact message",
    blocks: [
      {
        kind: "facts",
        rows: [
          ["From", `${message.firstName} ${message.lastName} <${message.email}>`],
          ["Subject", message.subject],
        ],
      },
      { kind: "paragraph", text: message.message },
    ],
    contact,
  });
  return { to: ownerEmail, subject: `New contact message: ${message.subject}`, text, html };
}
