import { and, eq, gt, inArray, lt, lte, notExists } from "drizzle-orm";
import type { AppConfig } from "~/config.server";
import type { Database } from "~/db/client.server";
import { memberLoginTokens, members, memberSessions, memberSubscriptions } from "~/db/schema";
import { queueEmail } from "~/email/outbox.server";
import { shopContact } from "~/email/shop-contact.server";
import type { Clock } from "~/lib/clock";
import { runCardRenewalPass } from "./card-renewals.server";
import { notPausedByCard } from "./paused-cards.server";
import { renewalLinkEmail, type RenewalEmailKind } from "./member-emails.server";
import { memberLinkSettings, type MemberLinkSettings } from "./member-links.server";
import type { MemberRow } from "./member-row.server";
import { renewalTier } from "./members.server";
import { addDays, GRACE_DAYS, REMINDER_DAYS_BEFORE, southAfricanDay } from "./periods";

export interface MembershipJobResult {
  reminded: number;
  due: number;
  lapsed: number;
}

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * Which reminder a member is owed today: the week-ahead one from 7 days before paid-until, the
 * day-before one from 1 day before. A server that was off through the first window sends only the
 * one that is still current, never both, and never one that is late by more than its window.
 */
function reminderFor(member: MemberRow, today: string): RenewalEmailKind | null {
  const daysLeft = daysBetween(today, member.paidUntil);
  const [weekAhead, dayBefore] = REMINDER_DAYS_BEFORE;
  if (daysLeft < 1 || daysLeft > weekAhead) return null;
  return daysLeft <= dayBefore ? "reminder-1" : "reminder-7";
}

/**
 * One pass of the membership calendar for the South African day of `now`: reminders before paid-until,
 * due on the day, lapsed (with a last email) after the grace week. Every step is stated in terms of
 * the day, not of what happened since the last pass, so a pass after days of downtime catches up, and a
 * second pass (or another instance's at the same moment) changes nothing: each email has a unique key
 * in the outbox, each status change is a conditional update, and a lapse's email is queued in the
 * transaction that made the change.
 */
export async function runMembershipJob(
  db: Database,
  now: Date,
  links: MemberLinkSettings,
): Promise<MembershipJobResult> {
  const today = southAfricanDay(now);
  const result: MembershipJobResult = { reminded: 0, due: 0, lapsed: 0 };
  const contact = await shopContact(db);

  const upcoming = await db
    .select()
    .from(members)
    .where(
      and(
        eq(members.status, "active"),
        gt(members.paidUntil, today),
        lte(members.paidUntil, addDays(today, REMINDER_DAYS_BEFORE[0])),
        // A member whose card will be charged gets the card's notice instead (card-renewals.server.ts).
        notExists(
          db
            .select({ id: memberSubscriptions.id })
            .from(memberSubscriptions)
            .where(and(eq(memberSubscriptions.memberId, members.id), eq(memberSubscriptions.status, "active"))),
        ),
      ),
    );
  for (const member of upcoming) {
    const kind = reminderFor(member, today);
    if (!kind) continue;
    const tier = await renewalTier(db, member);
    const email = renewalLinkEmail({ member, tier, links, contact, kind });
    if (await queueEmail(db, { ...email, dedupeKey: `member-${kind}:${member.id}:${member.paidUntil}` }))
      result.reminded++;
  }

  const lapseDay = addDays(today, -GRACE_DAYS);
  const became = await db
    .update(members)
    .set({ status: "due", updatedAt: now })
    .where(
      and(
        eq(members.status, "active"),
        lte(members.paidUntil, today),
        gt(members.paidUntil, lapseDay),
        notPausedByCard(db),
      ),
    )
    .returning({ id: members.id });
  result.due = became.length;

  await db.transaction(async (tx) => {
    const lapsed = await tx
      .update(members)
      .set({ status: "lapsed", updatedAt: now })
      .where(and(inArray(members.status, ["active", "due"]), lte(members.paidUntil, lapseDay), notPausedByCard(tx)))
      .returning();
    for (const member of lapsed) {
      const tier = await renewalTier(tx, member);
      const email = renewalLinkEmail({ member, tier, links, contact, kind: "lapsed" });
      await queueEmail(tx, { ...email, dedupeKey: `member-lapsed:${member.id}:${member.paidUntil}` });
    }
    result.lapsed = lapsed.length;
  });

  // Spent sign-in links and ended sessions are of no use to anyone; a day's margin keeps them for support questions.
  const yesterday = new Date(now.getTime() - 86_400_000);
  await db.delete(memberLoginTokens).where(lt(memberLoginTokens.expiresAt, yesterday));
  await db.delete(memberSessions).where(lt(memberSessions.expiresAt, now));
  return result;
}

/** Every 15 minutes, and soon after start (so a server that was down catches up at once). */
export function startMembershipJob(
  runtime: { config: AppConfig; database: { db: Database }; clock: Clock },
  everyMs = 15 * 60_000,
) {
  const { config, database, clock } = runtime;
  let running = false;
  const pass = (afterStart = false) => {
    // A slow pass (a large catch-up) is not overlapped by the next one on the same instance.
    if (running) return;
    running = true;
    const now = clock.now();
    runMembershipJob(database.db, now, memberLinkSettings(config))
      .then(async (r) => {
        const cards = await runCardRenewalPass(database.db, now, memberLinkSettings(config), config);
        if (cards.noticed || cards.failed || cards.linked) {
          console.log(
            `[members] cards: ${cards.noticed} told of a charge, ${cards.failed} card failed, ${cards.linked} sent the renewal link`,
          );
        }
        // The pass after a start is always logged: it is the catch-up after any downtime.
        if (afterStart || r.reminded || r.due || r.lapsed) {
          console.log(
            `[members] ${afterStart ? "catch-up pass after start" : "pass"}: ${r.reminded} reminded, ${r.due} now due, ${r.lapsed} lapsed`,
          );
        }
      })
      .catch((error) => console.error(`[members] membership pass failed: ${(error as Error).message}`))
      .finally(() => (running = false));
  };
  const first = setTimeout(() => pass(true), 2_000);
  const timer = setInterval(() => pass(), everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
