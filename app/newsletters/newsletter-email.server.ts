import { renderMarkdown } from "~/blog/markdown.server";
import { escapeHtml, renderEmail, type EmailBlock } from "~/email/layout.server";
import type { QueuedEmail } from "~/email/outbox.server";
import type { ShopContact } from "~/email/shop-contact.server";
import { hasRenditions, renditionUrl } from "~/lib/image-renditions";
import type { NewsletterCard } from "~/db/schema";
import type { SegmentRecipient } from "./segments.server";
import { listUnsubscribeHeaders } from "./subscription-emails.server";

export interface NewsletterContent {
  title: string;
  body: string;
  photos: { src: string; alt: string }[];
  card?: NewsletterCard | null;
}

/** A photo's address in an email: the site's own 800 px rendition, absolute, nothing in between. */
export function emailImageUrl(siteUrl: string, src: string): string {
  return `${siteUrl}${hasRenditions(src) ? renditionUrl(src, 800, "webp") : src}`;
}

const FONT = "'DM Sans', Helvetica, Arial, sans-serif";

/** The product or event as a card: photo, name, price and a plain link to its page. */
function cardBlock(card: NewsletterCard, siteUrl: string): EmailBlock {
  const href = `${siteUrl}${card.path}`;
  const label = card.kind === "product" ? "See it in the shop" : "See the workshop";
  const image = card.image
    ? `<img src="${escapeHtml(emailImageUrl(siteUrl, card.image))}" alt="${escapeHtml(card.imageAlt)}" width="520" ` +
      `style="display:block;width:100%;max-width:520px;height:auto;border-radius:8px;margin:0 0 12px;">`
    : "";
  return {
    kind: "raw",
    html:
      `<div style="margin:0 0 16px;padding:16px;border:1px solid #D9CFC0;border-radius:12px;font:16px/1.5 ${FONT};color:#1F1A17;">` +
      image +
      `<p style="margin:0;font-weight:600;">${escapeHtml(card.name)}</p>` +
      `<p style="margin:4px 0 12px;">${escapeHtml(card.price)}</p>` +
      `<a href="${escapeHtml(href)}" style="color:#1F1A17;font-weight:600;">${label}</a></div>`,
    text: `${card.name}, ${card.price}: ${href}`,
  };
}

/** Why she receives it, said in every message with the refusal (section 69 asks for both). */
const WHY: Record<SegmentRecipient["basis"], string> = {
  consent: "You receive this because you subscribed to our news.",
  member: "You receive this as a member: your plan includes our monthly posts.",
  customer: "You receive this because you bought from us or came to one of our workshops.",
};

/**
 * A newsletter as one email: the text in the blog's formatting, the photos, and the way out. Links are
 * left as written and nothing is added to watch who opens it: no tracking pixel, no rewritten link.
 */
export function newsletterEmail(
  letter: NewsletterContent,
  recipient: { email: string; basis: SegmentRecipient["basis"]; unsubscribeUrl: string | null },
  siteUrl: string,
  contact: ShopContact,
): QueuedEmail {
  const blocks: EmailBlock[] = [
    {
      kind: "raw",
      html: `<div style="font:16px/1.5 ${FONT};color:#1F1A17;">${renderMarkdown(letter.body)}</div>`,
      text: letter.body,
    },
    ...letter.photos.map((photo): EmailBlock => {
      const src = emailImageUrl(siteUrl, photo.src);
      return {
        kind: "raw",
        html:
          `<p style="margin:0 0 16px;"><img src="${escapeHtml(src)}" alt="${escapeHtml(photo.alt)}" width="552" ` +
          `style="display:block;width:100%;max-width:552px;height:auto;border-radius:12px;"></p>`,
        text: `Photo, ${photo.alt}: ${src}`,
      };
    }),
    ...(letter.card ? [cardBlock(letter.card, siteUrl)] : []),
  ];
  const unsubscribe = recipient.unsubscribeUrl;
  blocks.push(
    unsubscribe
      ? {
          kind: "raw",
          html:
            `<p style="margin:24px 0 0;font:14px/1.5 'DM Sans', Helvetica, Arial, sans-serif;color:#4A3F38;">` +
            `${escapeHtml(WHY[recipient.basis])} ` +
            `<a href="${escapeHtml(unsubscribe)}" style="color:#1F1A17;">Unsubscribe with one click</a>.</p>`,
          text: `${WHY[recipient.basis]} Unsubscribe with one click: ${unsubscribe}`,
        }
      : {
          kind: "paragraph",
          text: "This is a test sent to you. Each recipient's copy ends with her own one-click unsubscribe link.",
        },
  );
  const { html, text } = renderEmail({ preheader: letter.title, heading: letter.title, blocks, contact });
  return {
    to: recipient.email,
    subject: letter.title,
    text,
    html,
    headers: unsubscribe ? listUnsubscribeHeaders(unsubscribe) : undefined,
  };
}
