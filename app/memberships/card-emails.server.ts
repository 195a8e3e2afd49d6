import { escapeHtml, renderEmail, type EmailBlock } from "~/email/layout.server";
import type { OutgoingEmail } from "~/email/outbox.server";
import type { ShopContact } from "~/email/shop-contact.server";
import { dayMonthYear } from "~/lib/dates-in-words";
import { formatRand } from "~/lib/money";
import { memberLink, type MemberLinkSettings } from "./member-links.server";
import type { MemberRow } from "./member-row.server";

const firstName = (name: string) => name.split(/\s+/)[0] || name;

/** "31 March": the day a card is charged, without the year the member knows. */
const dayMonth = (isoDay: string) => dayMonthYear(isoDay).replace(/ \d{4}$/, "");

/**
 * Three days before a card subscription's charge, instead of the renewal reminders: what will be
 * charged and when, and how to stop it.
 */
export function cardChargeNoticeEmail(input: {
  member: MemberRow;
  tierName: string;
  amountCents: number;
  /** The day of the charge: paid-until, or the day a pause ends (decision 130). */
  chargesOn: string;
  links: MemberLinkSettings;
  contact: ShopContact;
}): OutgoingEmail {
  const { member, links } = input;
  const on = dayMonth(input.chargesOn);
  const subject = `Your card will be charged ${formatRand(input.amountCents)} on ${on}`;
  const lead =
    `Your ${input.tierName} membership renews by itself: your card will be charged ` +
    `${formatRand(input.amountCents)} on ${on}. You need do nothing.`;
  const cancel = memberLink(links, member, "cancel");
  const blocks: EmailBlock[] = [
    { kind: "paragraph", text: `Hi ${firstName(member.name)},` },
    { kind: "paragraph", text: lead },
    {
      kind: "facts",
      rows: [
        ["Plan", input.tierName],
        ["Amount", formatRand(input.amountCents)],
        ["Charged on", dayMonthYear(input.chargesOn)],
      ],
    },
    {
      kind: "raw",
      html:
        `<p style="margin:0 0 16px;font:15px/1.5 'DM Sans',Helvetica,Arial,sans-serif;color:#4A3F38;">Not ` +
        `staying? <a href="${escapeHtml(cancel)}" style="color:#A3431F;">Cancel membership</a>; your card is then not charged again.</p>`,
      text: `Not staying? Cancel membership (your card is then not charged again): ${cancel}`,
    },
    { kind: "paragraph", text: `See your membership and receipts any time at ${links.siteUrl}/account` },
  ];
  const { html, text } = renderEmail({ preheader: lead, heading: subject, blocks, contact: input.contact });
  return { to: member.email, subject, text, html, memberId: member.id, bodyExpiresOnSend: true };
}

/**
 * The card's retries are over and no charge came: one link to pay this month by card once; the
 * subscription stays in place for next month.
 */
export function cardFailedEmail(input: {
  member: MemberRow;
  tierName: string;
  amountCents: number;
  links: MemberLinkSettings;
  contact: ShopContact;
}): OutgoingEmail {
  const { member, links } = input;
  const due = dayMonthYear(member.paidUntil);
  const subject = "Your card payment did not go through";
  const lead =
    `We could not charge your card for your ${input.tierName} membership, due on ${due}. Pay this month once ` +
    `with the button below to keep your place; your monthly card payment stays in place for next month.`;
  const blocks: EmailBlock[] = [
    { kind: "paragraph", text: `Hi ${firstName(member.name)},` },
    { kind: "paragraph", text: lead },
    {
      kind: "facts",
      rows: [
        ["Plan", input.tierName],
        ["Amount", formatRand(input.amountCents)],
        ["Due", due],
      ],
    },
    { kind: "button", href: memberLink(links, member, "renew"), label: "Renew" },
    { kind: "paragraph", text: `See your membership and receipts any time at ${links.siteUrl}/account` },
  ];
  const { html, text } = renderEmail({ preheader: lead, heading: subject, blocks, contact: input.contact });
  return { to: member.email, subject, text, html, memberId: member.id, bodyExpiresOnSend: true };
}
