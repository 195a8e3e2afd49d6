import { renderEmail } from "~/email/layout.server";
import type { QueuedEmail } from "~/email/outbox.server";
import type { ShopContact } from "~/email/shop-contact.server";
import { formatRand } from "~/lib/money";

const offerDeadline = new Intl.DateTimeFormat("en-ZA", {
  timeZone: "Africa/Johannesburg",
  weekday: "long",
  day: "numeric",
  month: "long",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** "Saturday, 5 December at 14:00" in South African time: when an offer ends. */
export const describeOfferDeadline = (at: Date) => offerDeadline.format(at).replace(/, (\d\d:\d\d)$/, " at $1");

const seatWords = (n: number) => (n === 1 ? "1 seat" : `${n} seats`);

export interface OfferFacts {
  entryId: number;
  email: string;
  name: string;
  seats: number;
  itemName: string;
  sessionText: string | null;
  priceCents: number;
  link: string;
  expiresAt: Date;
  hours: number;
}

/** The offer: what is held, until when, and the link that buys it. Deduplicated per entry: one offer each. */
export function offerEmail(offer: OfferFacts, contact: ShopContact): QueuedEmail {
  const held = `${seatWords(offer.seats)} for ${offer.itemName}`;
  const deadline = describeOfferDeadline(offer.expiresAt);
  const { html, text } = renderEmail({
    preheader: `${held} held for you until ${deadline}.`,
    heading: "Seats are free for you",
    blocks: [
      { kind: "paragraph", text: `Hello ${offer.name}, seats have freed up and you were next on the waiting list.` },
      {
        kind: "facts",
        rows: [
          ["Held for you", held],
          ...(offer.sessionText ? ([["Session", offer.sessionText]] as [string, string][]) : []),
          ["Total", formatRand(offer.priceCents * offer.seats)],
          ["Held until", `${deadline} (${offer.hours} hours)`],
        ],
      },
      { kind: "button", href: offer.link, label: "Check out my seats" },
      {
        kind: "paragraph",
        text:
          `Nobody else can buy these seats until ${deadline}. If you do not check out by then, the hold ends ` +
          "and the seats go to the next person on the list. Not coming after all? Do nothing and they pass on.",
      },
    ],
    contact,
  });
  return {
    to: offer.email,
    subject: `Seats held for you until ${deadline}: ${offer.itemName}`,
    text,
    html,
    dedupeKey: `waitlist-offer:${offer.entryId}`,
    // The link buys the held seats: the stored body goes once it is sent.
    bodyExpiresOnSend: true,
  };
}

/** Told in words when an offer ends unused, so nobody wonders where their seats went. */
export function lapsedEmail(
  entry: { id: number; email: string; name: string; seats: number },
  itemName: string,
  contact: ShopContact,
): QueuedEmail {
  const { html, text } = renderEmail({
    preheader: `Your offer for ${itemName} has ended.`,
    heading: "Your offer has ended",
    blocks: [
      {
        kind: "paragraph",
        text:
          `Hello ${entry.name}, the ${seatWords(entry.seats)} held for you for ${itemName} were not checked out ` +
          "in time, so they have gone to the next person on the waiting list. You are no longer on the list; " +
          "join it again from the event's page if you would still like to come.",
      },
    ],
    contact,
  });
  return {
    to: entry.email,
    subject: `Your offer has ended: ${itemName}`,
    text,
    html,
    dedupeKey: `waitlist-lapsed:${entry.id}`,
  };
}
