import { and, eq, isNotNull, lt, lte } from "drizzle-orm";
import { recordAudit } from "~/admin/audit.server";
import type { AppConfig } from "~/config.server";
import type { Database } from "~/db/client.server";
import { members, memberSubscriptions } from "~/db/schema";
import { dayMonthYear } from "~/lib/dates-in-words";
import { subscriptionsApi } from "~/payments/payfast/providers.server";
import { activeSubscriptionOf } from "./card-subscriptions.server";
import { findMember } from "./member-row.server";
import { addMonths, southAfricanDay } from "./periods";

/** The owner may pause a member's card charges for one to three months (issue 41). */
export const PAUSE_MONTHS = [1, 2, 3] as const;

type Context = { db: Database; config: Pick<AppConfig, "payfast">; clock: { now(): Date } };
type Outcome = { ok: true; pausedUntil: string | null; name: string } | { ok: false; reason: string };

const unreachable = (what: string): Outcome => ({
  ok: false,
  reason: `We could not reach the card provider to ${what}, so nothing was changed. Please try again.`,
});

/**
 * Pauses a member's card charges for `months` (decision 130): PayFast skips that many monthly charges
 * (`pause` with `cycles`), she keeps her access until paid-until, and her calendar starts again on the
 * day the pause ends, when PayFast charges again. Nothing changes here unless PayFast agreed.
 */
export async function pauseCardCharges(context: Context, memberId: number, months: number): Promise<Outcome> {
  const member = await findMember(context.db, memberId);
  const card = member ? await activeSubscriptionOf(context.db, memberId) : undefined;
  if (!member || !card?.token)
    return { ok: false, reason: "This member pays by email reminder: no card charge to pause." };
  if (card.pausedUntil) {
    return { ok: false, reason: `Her card charges are already paused until ${dayMonthYear(card.pausedUntil)}.` };
  }
  if (member.status !== "active" || card.cardFailedAt) {
    return { ok: false, reason: "Only a member who is paid up can be paused: her last charge has not arrived." };
  }
  const pausedUntil = addMonths(member.paidUntil, months);
  try {
    await subscriptionsApi(card.provider, context).pause(card.token, months);
  } catch (error) {
    console.error(`[payfast] pausing subscription ${card.id} failed: ${(error as Error).message}`);
    return unreachable("pause the monthly charge");
  }
  const now = context.clock.now();
  await context.db
    .update(memberSubscriptions)
    .set({ pausedUntil, nextChargeOn: pausedUntil, updatedAt: now })
    .where(eq(memberSubscriptions.id, card.id));
  await recordAudit(
    context.db,
    {
      action: "member.card-pause",
      entity: "member",
      entityId: memberId,
      summary:
        `Paused the card charges of ${member.name} (${member.email}) for ` +
        `${months} month${months === 1 ? "" : "s"}, until ${dayMonthYear(pausedUntil)}`,
      after: { pausedUntil, months },
    },
    now,
  );
  return { ok: true, pausedUntil, name: member.name };
}

/**
 * Ends a pause early: PayFast charges again on paid-until if that is still ahead, otherwise today, and
 * her calendar starts again from that day (decision 130).
 */
export async function resumeCardCharges(context: Context, memberId: number): Promise<Outcome> {
  const member = await findMember(context.db, memberId);
  const card = member ? await activeSubscriptionOf(context.db, memberId) : undefined;
  if (!member || !card?.token || !card.pausedUntil) return { ok: false, reason: "Her card charges are not paused." };
  const now = context.clock.now();
  const today = southAfricanDay(now);
  const chargesOn = member.paidUntil > today ? member.paidUntil : today;
  try {
    const api = subscriptionsApi(card.provider, context);
    await api.unpause(card.token);
    // PayFast's run date after an unpause is not documented (§5 [U]): it is set, so either answer works.
    await api.moveRunDate(card.token, chargesOn);
  } catch (error) {
    console.error(`[payfast] resuming subscription ${card.id} failed: ${(error as Error).message}`);
    return unreachable("resume the monthly charge");
  }
  await context.db.transaction(async (tx) => {
    await tx
      .update(memberSubscriptions)
      .set({ pausedUntil: null, nextChargeOn: chargesOn, updatedAt: now })
      .where(eq(memberSubscriptions.id, card.id));
    await tx
      .update(members)
      .set({ paidUntil: chargesOn, updatedAt: now })
      .where(and(eq(members.id, memberId), lt(members.paidUntil, chargesOn)));
    await recordAudit(
      tx,
      {
        action: "member.card-resume",
        entity: "member",
        entityId: memberId,
        summary: `Resumed the card charges of ${member.name} (${member.email}): next charge ${dayMonthYear(chargesOn)}`,
        before: { pausedUntil: card.pausedUntil },
        after: { chargesOn },
      },
      now,
    );
  });
  return { ok: true, pausedUntil: null, name: member.name };
}

/**
 * The daily pass ends the pauses whose day has come: the member's calendar starts again on that day
 * (paid-until moves to it, so the charge PayFast makes then extends by one period as any charge does).
 * Conditional updates, so passes on two instances end each pause once.
 */
export async function endPausesDue(db: Database, now: Date): Promise<number> {
  const today = southAfricanDay(now);
  const due = await db
    .select({
      id: memberSubscriptions.id,
      memberId: memberSubscriptions.memberId,
      pausedUntil: memberSubscriptions.pausedUntil,
    })
    .from(memberSubscriptions)
    .where(
      and(
        eq(memberSubscriptions.status, "active"),
        isNotNull(memberSubscriptions.pausedUntil),
        lte(memberSubscriptions.pausedUntil, today),
      ),
    );
  let ended = 0;
  for (const card of due) {
    const day = card.pausedUntil!;
    await db.transaction(async (tx) => {
      const cleared = await tx
        .update(memberSubscriptions)
        .set({ pausedUntil: null, updatedAt: now })
        .where(and(eq(memberSubscriptions.id, card.id), eq(memberSubscriptions.pausedUntil, day)))
        .returning({ id: memberSubscriptions.id });
      if (!cleared.length || card.memberId === null) return;
      await tx
        .update(members)
        .set({ paidUntil: day, updatedAt: now })
        .where(and(eq(members.id, card.memberId), eq(members.status, "active"), lt(members.paidUntil, day)));
      ended++;
    });
  }
  return ended;
}
