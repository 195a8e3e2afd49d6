import { and, asc, eq } from "drizzle-orm";
import type { AppContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import { memberSubscriptions, payfastHeldNotifications } from "~/db/schema";
import { findMember } from "~/memberships/member-row.server";
import { readItn, validateItn } from "~/payments/payfast/itn.server";
import { subscriptionsApi } from "~/payments/payfast/providers.server";
import type { CardNotification } from "~/payments/payfast/subscriptions";
import { alertOwner, applyCardNotification } from "./card-charges.server";

type Context = Pick<AppContext, "db" | "config" | "clock">;
type CardSubscription = typeof memberSubscriptions.$inferSelect;

/** Keeps a checked notification whose validate call did not answer (decision 131); a resend is held once. */
export async function holdNotification(
  db: Database,
  input: { paymentId: string; subscriptionId: number; body: string },
  now: Date,
): Promise<void> {
  await db
    .insert(payfastHeldNotifications)
    .values({ ...input, receivedAt: now })
    .onConflictDoNothing({ target: payfastHeldNotifications.paymentId });
}

/** A held notification was settled (applied through a resend or here, or refused): the sweeper leaves it. */
export async function settleHeld(db: Database, paymentId: string, status: "applied" | "refused", now: Date) {
  await db
    .update(payfastHeldNotifications)
    .set({ status, settledAt: now })
    .where(and(eq(payfastHeldNotifications.paymentId, paymentId), eq(payfastHeldNotifications.status, "held")));
}

export interface HeldPass {
  applied: number;
  refused: number;
  waiting: number;
}

/**
 * The sweeper's pass over held notifications: the validate call is tried again; if it still does not
 * answer, PayFast's subscriptions API (`fetch`, signed with the passphrase) tells whether the charge was
 * made: a first charge made the subscription (its token answers), a later one moved the run date past
 * the member's paid-until, a cancel shows CANCELLED. A confirmed one is applied through the same code as
 * a validated notification, which counts each `pf_payment_id` once, so a resend PayFast also delivers
 * changes nothing more. An unconfirmed one waits for the next pass.
 */
export async function reconcileHeldNotifications(context: Context): Promise<HeldPass> {
  const payfast = context.config.payfast;
  const result: HeldPass = { applied: 0, refused: 0, waiting: 0 };
  if (!payfast) return result;
  const held = await context.db
    .select({ held: payfastHeldNotifications, subscription: memberSubscriptions })
    .from(payfastHeldNotifications)
    .innerJoin(memberSubscriptions, eq(memberSubscriptions.id, payfastHeldNotifications.subscriptionId))
    .where(eq(payfastHeldNotifications.status, "held"))
    .orderBy(asc(payfastHeldNotifications.receivedAt))
    .limit(50);
  for (const { held: row, subscription } of held) {
    const now = context.clock.now();
    await context.db
      .update(payfastHeldNotifications)
      .set({ attempts: row.attempts + 1 })
      .where(eq(payfastHeldNotifications.paymentId, row.paymentId));
    // The address was checked when it arrived; the signature is checked again over the body as kept.
    const read = readItn(row.body, "127.0.0.1", { passphrase: payfast.passphrase, itnSources: ["127.0.0.1/32"] });
    if (!read.ok) {
      await settleHeld(context.db, row.paymentId, "refused", now);
      result.refused++;
      continue;
    }
    const validation = await validateItn(read.pairs, payfast);
    if (validation === "INVALID") {
      await alertOwner(
        context.db,
        `Refused a held PayFast notification (payment ${row.paymentId}): PayFast's validate call answered INVALID`,
        now,
      );
      await settleHeld(context.db, row.paymentId, "refused", now);
      result.refused++;
      continue;
    }
    if (validation === "unavailable" && !(await confirmedByApi(context, subscription, read.notification))) {
      result.waiting++;
      continue;
    }
    // The subscription as it is now (a resend may have moved it on since the notification was held).
    const [current] = await context.db
      .select()
      .from(memberSubscriptions)
      .where(eq(memberSubscriptions.id, subscription.id));
    await applyCardNotification(context, current ?? subscription, read.notification);
    await settleHeld(context.db, row.paymentId, "applied", now);
    result.applied++;
  }
  return result;
}

async function confirmedByApi(
  context: Context,
  subscription: CardSubscription,
  notification: CardNotification,
): Promise<boolean> {
  try {
    const state = await subscriptionsApi("payfast", context).fetch(notification.token);
    if (notification.status === "CANCELLED") return state.statusText === "CANCELLED";
    if (notification.status !== "COMPLETE") return false;
    // The first charge: the subscription exists at PayFast only because it was paid.
    if (subscription.status === "pending" || !subscription.memberId) return true;
    const member = await findMember(context.db, subscription.memberId);
    // After each charge the run date is kept on paid-until (decision 115): past it, PayFast has charged again.
    return member !== undefined && state.runDate > member.paidUntil;
  } catch (error) {
    console.warn(`[payfast] could not ask about held payment ${notification.paymentId}: ${(error as Error).message}`);
    return false;
  }
}
