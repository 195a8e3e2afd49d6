import { and, desc, eq, inArray, isNull, or } from "drizzle-orm";
import { recordAudit } from "~/admin/audit.server";
import type { AppConfig } from "~/config.server";
import type { Database, Tx } from "~/db/client.server";
import { memberSubscriptions, membershipTiers } from "~/db/schema";
import { subscriptionsApi } from "~/payments/payfast/providers.server";
import { SubscriptionApiError } from "~/payments/payfast/subscriptions";
import { cancelMembership, chooseNextTier } from "./members.server";
import type { MemberRow } from "./member-row.server";

export type CardSubscription = typeof memberSubscriptions.$inferSelect;
type Executor = Database | Tx;

/** The checkout of a membership as a card subscription: the price agreed now is the one every charge must match. */
export async function createPendingSubscription(
  db: Executor,
  input: { orderId: string; provider: CardSubscription["provider"]; tierSlug: string; amountCents: number },
  now: Date,
): Promise<CardSubscription> {
  const [row] = await db
    .insert(memberSubscriptions)
    .values({ ...input, status: "pending", createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: memberSubscriptions.orderId, set: { updatedAt: now } })
    .returning();
  return row!;
}

/**
 * The subscription a notification is about: by its token (every charge carries it), or for the first
 * notification, by the checkout it names while no token is known yet.
 */
export async function subscriptionForNotification(
  db: Executor,
  token: string,
  checkoutRef: string,
): Promise<CardSubscription | undefined> {
  const byCheckout = /^[0-9a-f-]{36}$/i.test(checkoutRef)
    ? and(eq(memberSubscriptions.orderId, checkoutRef), isNull(memberSubscriptions.token))
    : undefined;
  const [row] = await db
    .select()
    .from(memberSubscriptions)
    .where(byCheckout ? or(eq(memberSubscriptions.token, token), byCheckout) : eq(memberSubscriptions.token, token))
    .orderBy(desc(memberSubscriptions.token))
    .limit(1);
  return row;
}

export async function findSubscriptionByOrder(db: Executor, orderId: string): Promise<CardSubscription | undefined> {
  const [row] = await db.select().from(memberSubscriptions).where(eq(memberSubscriptions.orderId, orderId)).limit(1);
  return row;
}

/**
 * A verified charge was applied: the subscription knows its token and member, is active (unless it was
 * cancelled, which is final), and its next charge falls on the member's paid-until (decision 115).
 */
export async function recordCharge(
  db: Executor,
  subscription: Pick<CardSubscription, "id">,
  input: { token: string; member: Pick<MemberRow, "id" | "paidUntil"> },
  now: Date,
): Promise<CardSubscription | undefined> {
  const [current] = await db.select().from(memberSubscriptions).where(eq(memberSubscriptions.id, subscription.id));
  if (!current) return undefined;
  const [row] = await db
    .update(memberSubscriptions)
    .set({
      token: current.token ?? input.token,
      memberId: input.member.id,
      status: current.status === "cancelled" ? "cancelled" : "active",
      nextChargeOn: current.status === "cancelled" ? null : input.member.paidUntil,
      cardFailedAt: null,
      // A charge in a pause (PayFast ignored it, or it was resumed there) ends the pause: she has paid.
      pausedUntil: null,
      updatedAt: now,
    })
    .where(eq(memberSubscriptions.id, subscription.id))
    .returning();
  return row;
}

/** The member's card subscription that still charges, if any. */
export async function activeSubscriptionOf(db: Executor, memberId: number): Promise<CardSubscription | undefined> {
  const [row] = await db
    .select()
    .from(memberSubscriptions)
    .where(and(eq(memberSubscriptions.memberId, memberId), eq(memberSubscriptions.status, "active")))
    .orderBy(desc(memberSubscriptions.id))
    .limit(1);
  return row;
}

/** How a member pays, for her page and the owner's: by card (with the next charge and whether it failed) or by email reminder. */
export type HowMemberPays =
  | {
      kind: "card";
      provider: CardSubscription["provider"];
      renewsOn: string | null;
      cardFailed: boolean;
      pausedUntil: string | null;
    }
  | { kind: "email" };

export async function howMemberPays(db: Executor, memberId: number): Promise<HowMemberPays> {
  const card = await activeSubscriptionOf(db, memberId);
  if (!card) return { kind: "email" };
  return {
    kind: "card",
    provider: card.provider,
    renewsOn: card.nextChargeOn,
    cardFailed: card.cardFailedAt !== null,
    pausedUntil: card.pausedUntil,
  };
}

const providerWords = (provider: CardSubscription["provider"]) =>
  provider === "payfast" ? "PayFast" : "the payment simulator";

/** How each of these members pays (one query for a page of the owner's list). */
export async function howMembersPay(db: Executor, memberIds: number[]): Promise<Map<number, HowMemberPays>> {
  const found = new Map<number, HowMemberPays>(memberIds.map((id) => [id, { kind: "email" }]));
  if (!memberIds.length) return found;
  const rows = await db
    .select()
    .from(memberSubscriptions)
    .where(and(inArray(memberSubscriptions.memberId, memberIds), eq(memberSubscriptions.status, "active")));
  for (const card of rows) {
    found.set(card.memberId!, {
      kind: "card",
      provider: card.provider,
      renewsOn: card.nextChargeOn,
      cardFailed: card.cardFailedAt !== null,
      pausedUntil: card.pausedUntil,
    });
  }
  return found;
}

/** The subscription ended at the provider (cancelled there, or by us through its API): final, and no longer charged. */
export async function markSubscriptionCancelled(db: Executor, id: number, now: Date): Promise<boolean> {
  const changed = await db
    .update(memberSubscriptions)
    .set({ status: "cancelled", cancelledAt: now, nextChargeOn: null, pausedUntil: null, updatedAt: now })
    .where(
      and(
        eq(memberSubscriptions.id, id),
        or(eq(memberSubscriptions.status, "active"), eq(memberSubscriptions.status, "pending")),
      ),
    )
    .returning({ id: memberSubscriptions.id });
  // Only the one call that ended it answers true: a cancel and PayFast's notice of it race harmlessly.
  return changed.length > 0;
}

/**
 * Stops a member's monthly card charge at the provider, through its API, and marks the subscription
 * cancelled: "none" when she pays by email, "unreachable" (nothing changed) when the provider cannot be
 * reached. Cancelling and erasing her data both stop the charge first.
 */
export async function stopCardCharges(
  context: { db: Database; config: Pick<AppConfig, "payfast">; clock: { now(): Date } },
  memberId: number,
): Promise<"stopped" | "none" | "unreachable"> {
  const card = await activeSubscriptionOf(context.db, memberId);
  if (!card?.token) return "none";
  try {
    await subscriptionsApi(card.provider, context).cancel(card.token);
  } catch (error) {
    const detail = error instanceof SubscriptionApiError ? error.message : (error as Error).message;
    console.error(`[payfast] cancelling subscription ${card.id} failed: ${detail}`);
    return "unreachable";
  }
  await markSubscriptionCancelled(context.db, card.id, context.clock.now());
  return "stopped";
}

/**
 * Cancelling a membership: a card subscription is cancelled at the provider first, through its API, so
 * that no charge follows; if the provider cannot be reached nothing changes and the person is told.
 * The member keeps her access until paid-until either way.
 */
export async function cancelMembershipAndCard(
  context: { db: Database; config: Pick<AppConfig, "payfast">; clock: { now(): Date } },
  memberId: number,
  by: "member" | "owner",
): Promise<{ ok: true; member: MemberRow } | { ok: false; reason: string }> {
  const now = context.clock.now();
  const card = await activeSubscriptionOf(context.db, memberId);
  if ((await stopCardCharges(context, memberId)) === "unreachable") {
    return {
      ok: false,
      reason:
        "We could not reach the card provider to stop the monthly charge, so nothing was changed. Please try again.",
    };
  }
  const member = await cancelMembership(context.db, memberId, now, by);
  if (!member) return { ok: false, reason: "Your membership could not be cancelled. Please try again." };
  if (card?.token && by === "owner") {
    await recordAudit(
      context.db,
      {
        action: "member.card-cancel",
        entity: "member",
        entityId: memberId,
        summary: `Cancelled the card subscription of ${member.name} (${member.email}) at ${providerWords(card.provider)}`,
      },
      now,
    );
  }
  return { ok: true, member };
}

/**
 * A change of plan, taking effect at the next renewal: for a member paying by card the subscription's
 * amount is changed at the provider first (PayFast's `update`), and the new price becomes the one the
 * next charge must match. If the provider cannot be reached nothing changes.
 */
export async function chooseNextTierAndCard(
  context: { db: Database; config: Pick<AppConfig, "payfast">; clock: { now(): Date } },
  memberId: number,
  tierSlug: string,
): Promise<{ ok: true; member: MemberRow; chargeCents: number | null } | { ok: false; reason: string }> {
  const now = context.clock.now();
  const card = await activeSubscriptionOf(context.db, memberId);
  const [tier] = await context.db.select().from(membershipTiers).where(eq(membershipTiers.slug, tierSlug)).limit(1);
  const price = tier?.visible ? tier.priceCents : null;
  if (card?.token && price !== null && price !== card.amountCents) {
    try {
      await subscriptionsApi(card.provider, context).updateAmount(card.token, price);
    } catch (error) {
      console.error(`[payfast] changing the amount of subscription ${card.id} failed: ${(error as Error).message}`);
      return {
        ok: false,
        reason:
          "We could not reach the card provider to change your monthly charge, so your plan is unchanged. Please try again.",
      };
    }
  }
  const chosen = await chooseNextTier(context.db, memberId, tierSlug, now);
  if (!chosen.ok) return chosen;
  if (card && price !== null) {
    await context.db
      .update(memberSubscriptions)
      .set({ tierSlug, amountCents: price, updatedAt: now })
      .where(eq(memberSubscriptions.id, card.id));
  }
  return { ok: true, member: chosen.member, chargeCents: card ? price : null };
}
