import { membershipTiers } from "~/db/schema";
import { escapeHtml, renderEmail, type EmailBlock } from "~/email/layout.server";
import type { OutgoingEmail } from "~/email/outbox.server";
import type { ShopContact } from "~/email/shop-contact.server";
import { dayMonthYear } from "~/lib/dates-in-words";
import { formatRand } from "~/lib/money";
import { memberLink, type MemberLinkSettings } from "./member-links.server";
import type { MemberRow } from "./member-row.server";

type Tier = typeof membershipTiers.$inferSelect;

/** reminder-7 and reminder-1: before paid-until; lapsed: the last email; resend: the owner sent the link again. */
export type RenewalEmailKind = "reminder-7" | "reminder-1" | "lapsed" | "resend";

const firstName = (name: string) => name.split(/\s+/)[0] || name;

const SUBJECTS: Record<RenewalEmailKind, (due: string) => string> = {
  "reminder-7": (due) => `Your Honey Bee membership renews on ${due}`,
  "reminder-1": () => "Your Honey Bee membership renews tomorrow",
  lapsed: () => "Your Honey Bee membership has lapsed",
  resend: () => "Renew your Honey Bee membership",
};

/**
 * The email that asks a member to pay for their next month: a "Renew" button to a checkout for their
 * tier as it is priced now, and (while they are still a member) a link to cancel instead.
 */
export function renewalLinkEmail(input: {
  member: MemberRow;
  tier: Tier;
  links: MemberLinkSettings;
  contact: ShopContact;
  kind: RenewalEmailKind;
}): OutgoingEmail {
  const { member, tier, links, kind } = input;
  const due = dayMonthYear(member.paidUntil);
  const price = tier.priceCents === null ? tier.priceText : `${formatRand(tier.priceCents)} a month`;
  const lead: Record<RenewalEmailKind, string> = {
    "reminder-7": `Your ${tier.name} membership is paid until ${due}. Renew in one click to keep your place.`,
    "reminder-1": `Your ${tier.name} membership is due for renewal tomorrow, ${due}.`,
    lapsed:
      `We did not receive your renewal, so your membership lapsed a week after ${due}. This is the last ` +
      `reminder we send; you are welcome back any time.`,
    resend: `Here is the link to renew your ${tier.name} membership, which is paid until ${due}.`,
  };
  const blocks: EmailBlock[] = [
    { kind: "paragraph", text: `Hi ${firstName(member.name)},` },
    { kind: "paragraph", text: lead[kind] },
    {
      kind: "facts",
      rows: [
        ["Plan", tier.name],
        ["Price", price],
        ["Due", due],
      ],
    },
    { kind: "button", href: memberLink(links, member, "renew"), label: "Renew" },
  ];
  if (kind !== "lapsed") {
    const cancel = memberLink(links, member, "cancel");
    blocks.push({
      kind: "raw",
      html:
        `<p style="margin:0 0 16px;font:15px/1.5 'DM Sans',Helvetica,Arial,sans-serif;color:#4A3F38;">Not ` +
        `staying? <a href="${escapeHtml(cancel)}" style="color:#A3431F;">Cancel membership</a></p>`,
      text: `Not staying? Cancel membership: ${cancel}`,
    });
  }
  blocks.push({ kind: "paragraph", text: `See your membership and receipts any time at ${links.siteUrl}/account` });
  const subject = SUBJECTS[kind](due);
  const { html, text } = renderEmail({ preheader: lead[kind], heading: subject, blocks, contact: input.contact });
  return { to: member.email, subject, text, html, memberId: member.id, bodyExpiresOnSend: true };
}
