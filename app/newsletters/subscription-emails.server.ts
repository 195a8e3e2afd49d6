import { renderEmail } from "~/email/layout.server";
import type { QueuedEmail } from "~/email/outbox.server";
import type { ShopContact } from "~/email/shop-contact.server";
import type { ConsentForm } from "./sign-up-schema";

const WHERE: Record<ConsentForm, string> = {
  footer: "the sign-up form on our site",
  blog: "the sign-up form on our blog",
  checkout: "the box you ticked at checkout",
  account: "your account page",
  unsubscribe: "the unsubscribe page",
};

/** The double opt-in: nothing is sent to the address until its owner follows this link. */
export function confirmationEmail(
  to: string,
  form: ConsentForm,
  confirmUrl: string,
  contact: ShopContact,
): QueuedEmail {
  const { html, text } = renderEmail({
    preheader: "One tap to confirm you want our news",
    heading: "Please confirm your subscription",
    blocks: [
      {
        kind: "paragraph",
        text: `Someone, we hope you, asked for news of new pieces and workshops from ${contact.name} through ${WHERE[form]}.`,
      },
      { kind: "button", href: confirmUrl, label: "Confirm my subscription" },
      {
        kind: "paragraph",
        text: "If it was not you, ignore this email: without the confirmation we send you nothing more. The link works for 7 days.",
      },
    ],
    contact,
  });
  return { to, subject: "Please confirm your subscription", text, html, bodyExpiresOnSend: true };
}

/** An existing customer needs no confirmation: she is told, with the way out. */
export function welcomeEmail(to: string, unsubscribeUrl: string, contact: ShopContact): QueuedEmail {
  const { html, text } = renderEmail({
    preheader: "You will hear about new pieces and workshops",
    heading: "You are subscribed",
    blocks: [
      { kind: "paragraph", text: `Thank you: ${contact.name} will email you news of new pieces and workshops.` },
      { kind: "paragraph", text: `Not what you wanted? Unsubscribe with one click: ${unsubscribeUrl}` },
    ],
    contact,
  });
  return { to, subject: "You are subscribed to our news", text, html, headers: listUnsubscribeHeaders(unsubscribeUrl) };
}

/** RFC 8058: a mail app shows its own Unsubscribe button and POSTs `List-Unsubscribe=One-Click` to the URL. */
export function listUnsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}
