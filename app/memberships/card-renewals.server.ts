import { and, eq, gt, isNull, lt, lte, or } from "drizzle-orm";
import type { AppConfig } from "~/config.server";
import type { Database } from "~/db/client.server";
import { members, membershipTiers, memberSubscriptions } from "~/db/schema";
import { queueEmail } from "~/email/outbox.server";
import { shopContact } from "~/email/shop-contact.server";
import { subscriptionsApi } from "~/payments/payfast/providers.server";
import { cardChargeNoticeEmail, cardFailedEmail } from "./card-emails.server";
import { endPausesDue } from "./card-pauses.server";
import { markSubscriptionCancelled } from "./card-subscriptions.server";
import type { MemberLinkSettings } from "./member-links.server";
import { addDays, southAfricanDay } from "./periods";

/** Days before a card charge that the member is told of it. */
export const CARD_NOTICE_DAYS = 3;
/** PayFast retries a failed card for five days (§1): after that the member is sent the renewal link. */
export const CARD_RETRY_DAYS = 6;

export interface CardRenewalResult {
  noticed: number;
  failed: number;
  linked: number;
}

/**
 * One pass over the card subscriptions for the South African day of `now`, after the membership job:
 * the 3-day notice of a charge (instead of the renewal reminders); a charge that has not arrived the day
 * after paid-until (PayFast sends nothing for a failed card) marks the card failed for the owner, after
 * asking the provider whether the subscription is still there; once the retries are over the member is
 * emailed the renewal link once. Like the membership job, every step is keyed to the day and its email to
 * the paid-until day, so passes on several instances, or after downtime, send each once.
 */
export async function runCardRenewalPass(
  db: Database,
  now: Date,
  links: MemberLinkSettings,
  config: Pick<AppConfig, "payfast">,
): Promise<CardRenewalResult> {
  const today = southAfricanDay(now);
  const result: CardRenewalResult = { noticed: 0, failed: 0, linked: 0 };
  const contact = await shopContact(db);
  const cards = db
    .select({ card: memberSubscriptions, member: members, tierName: membershipTiers.name })
    .from(memberSubscriptions)
    .innerJoin(members, eq(members.id, memberSubscriptions.memberId))
    .leftJoin(membershipTiers, eq(membershipTiers.slug, memberSubscriptions.tierSlug));

  await endPausesDue(db, now);
  const noticeDay = addDays(today, CARD_NOTICE_DAYS);
  const soon = await cards.where(
    and(
      eq(memberSubscriptions.status, "active"),
      eq(members.status, "active"),
      or(
        and(isNull(memberSubscriptions.pausedUntil), gt(members.paidUntil, today), lte(members.paidUntil, noticeDay)),
        // A paused member is told before the charge that ends her pause (decision 130).
        and(gt(memberSubscriptions.pausedUntil, today), lte(memberSubscriptions.pausedUntil, noticeDay)),
      ),
    ),
  );
  for (const { card, member, tierName } of soon) {
    const chargesOn = card.pausedUntil ?? member.paidUntil;
    const email = cardChargeNoticeEmail({
      member,
      tierName: tierName ?? card.tierSlug,
      amountCents: card.amountCents,
      chargesOn,
      links,
      contact,
    });
    if (await queueEmail(db, { ...email, dedupeKey: `member-card-notice:${member.id}:${chargesOn}` })) result.noticed++;
  }

  const late = await cards.where(
    and(
      eq(memberSubscriptions.status, "active"),
      lt(members.paidUntil, today),
      isNull(memberSubscriptions.cardFailedAt),
      isNull(memberSubscriptions.pausedUntil),
    ),
  );
  for (const { card } of late) {
    const state = await askProvider(card, { config, db });
    if (state === "unreachable") continue;
    if (state === "cancelled") {
      await markSubscriptionCancelled(db, card.id, now);
      continue;
    }
    await db
      .update(memberSubscriptions)
      .set({ cardFailedAt: now, updatedAt: now })
      .where(and(eq(memberSubscriptions.id, card.id), isNull(memberSubscriptions.cardFailedAt)));
    result.failed++;
  }

  const retriesOver = await cards.where(
    and(
      eq(memberSubscriptions.status, "active"),
      eq(members.status, "due"),
      lte(members.paidUntil, addDays(today, -CARD_RETRY_DAYS)),
      isNull(memberSubscriptions.pausedUntil),
    ),
  );
  for (const { card, member, tierName } of retriesOver) {
    const state = await askProvider(card, { config, db });
    if (state === "cancelled") await markSubscriptionCancelled(db, card.id, now);
    const email = cardFailedEmail({
      member,
      tierName: tierName ?? card.tierSlug,
      amountCents: card.amountCents,
      links,
      contact,
    });
    if (await queueEmail(db, { ...email, dedupeKey: `member-card-failed:${member.id}:${member.paidUntil}` }))
      result.linked++;
  }
  return result;
}

/** What the provider says of a subscription whose charge has not come: still charging, cancelled there, or no answer. */
async function askProvider(
  card: typeof memberSubscriptions.$inferSelect,
  context: { config: Pick<AppConfig, "payfast">; db: Database },
): Promise<"charging" | "cancelled" | "unreachable"> {
  if (!card.token) return "unreachable";
  try {
    const state = await subscriptionsApi(card.provider, context).fetch(card.token);
    return state.statusText === "CANCELLED" ? "cancelled" : "charging";
  } catch (error) {
    console.warn(`[payfast] could not ask about subscription ${card.id}: ${(error as Error).message}`);
    return "unreachable";
  }
}
