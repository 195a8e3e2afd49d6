import { and, asc, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { AppConfig } from "~/config.server";
import type { Database, Tx } from "~/db/client.server";
import { emailOutbox, newsletterRecipients, newsletters } from "~/db/schema";
import { emailInsert } from "~/email/outbox.server";
import { shopContactFrom } from "~/email/shop-contact.server";
import type { Clock } from "~/lib/clock";
import { currentSiteSettings } from "~/settings/site-settings.server";
import { newsletterEmail } from "./newsletter-email.server";
import { segmentSelect } from "./segments.server";
import { unsubscribeUrl } from "./unsubscribe-links.server";

export interface SenderSettings {
  siteUrl: string;
  sessionSecret: string;
  ownerEmail: string;
  /** Emails queued per second across every instance. */
  ratePerSecond: number;
  /** How often a pass runs; each queues rate × this many. */
  everyMs: number;
}

export const newsletterSenderSettings = (config: AppConfig): SenderSettings => ({
  siteUrl: config.siteUrl,
  sessionSecret: config.sessionSecret,
  ownerEmail: config.mail.ownerEmail,
  ratePerSecond: config.newsletterRate ?? 2,
  everyMs: 5_000,
});

/**
 * Lists a newsletter's recipients once, in the statement's own transaction with the status change,
 * so a crash leaves it either scheduled (and started again) or sending with its whole list.
 */
export async function startNewsletter(db: Database, id: number, now: Date): Promise<boolean> {
  return db.transaction((tx) => startNewsletterIn(tx, id, now));
}

/** startNewsletter inside a caller's transaction, for a caller that creates the newsletter in it too. */
export async function startNewsletterIn(tx: Tx, id: number, now: Date): Promise<boolean> {
  const [letter] = await tx
    .update(newsletters)
    .set({ status: "sending", startedAt: now, updatedAt: now })
    .where(and(eq(newsletters.id, id), or(eq(newsletters.status, "draft"), eq(newsletters.status, "scheduled"))))
    .returning({ id: newsletters.id, segment: newsletters.segment });
  if (!letter) return false;
  await tx.execute(sql`insert into newsletter_recipients (newsletter_id, email, name, basis)
    select ${letter.id}, q.email, q.name, q.basis from (${segmentSelect(letter.segment)}) q
    on conflict (newsletter_id, email) do nothing`);
  return true;
}

/**
 * One pass: starts what is due, then queues the next batch of each newsletter under way into the
 * outbox, which sends, retries and marks failures. Instances take turns on a newsletter by a
 * conditional update of its last batch time, so the rate holds however many run; and each recipient's
 * outbox row has a dedupe key made from her row's id, so she is queued once whatever races or restarts.
 */
export async function runNewsletterPass(db: Database, settings: SenderSettings, now: Date, wallClock = new Date()) {
  const due = await db
    .select({ id: newsletters.id })
    .from(newsletters)
    .where(and(eq(newsletters.status, "scheduled"), lte(newsletters.sendAt, now)));
  for (const { id } of due) await startNewsletter(db, id, now);

  const sending = await db
    .select()
    .from(newsletters)
    .where(eq(newsletters.status, "sending"))
    .orderBy(asc(newsletters.id));
  let queued = 0;
  const batchSize = Math.max(1, Math.floor((settings.ratePerSecond * settings.everyMs) / 1000));
  // Turns go by real time, not the shop's clock (APP_NOW may pin that): the rate is about the mail server's seconds.
  const turnStartedBefore = new Date(wallClock.getTime() - settings.everyMs + 1);
  if (!sending.length) return { queued };
  const contact = shopContactFrom(await currentSiteSettings(db, settings.ownerEmail));
  for (const letter of sending) {
    const [turn] = await db
      .update(newsletters)
      .set({ lastBatchAt: wallClock })
      .where(
        and(
          eq(newsletters.id, letter.id),
          eq(newsletters.status, "sending"),
          or(isNull(newsletters.lastBatchAt), lte(newsletters.lastBatchAt, turnStartedBefore)),
        ),
      )
      .returning({ id: newsletters.id });
    if (!turn) continue;
    queued += await db.transaction(async (tx) => {
      const batch = await tx
        .select()
        .from(newsletterRecipients)
        .where(and(eq(newsletterRecipients.newsletterId, letter.id), isNull(newsletterRecipients.outboxId)))
        .orderBy(asc(newsletterRecipients.id))
        .limit(batchSize);
      if (!batch.length) {
        await tx
          .update(newsletters)
          .set({ status: "sent", finishedAt: now, updatedAt: now })
          .where(and(eq(newsletters.id, letter.id), eq(newsletters.status, "sending")));
        return 0;
      }
      for (const recipient of batch) {
        const dedupeKey = `newsletter:${letter.id}:${recipient.id}`;
        const email = newsletterEmail(
          letter,
          {
            email: recipient.email,
            basis: recipient.basis,
            unsubscribeUrl: unsubscribeUrl(settings.siteUrl, settings.sessionSecret, { kind: "r", id: recipient.id }),
          },
          settings.siteUrl,
          contact,
        );
        await emailInsert(tx, { ...email, dedupeKey });
        await tx
          .update(newsletterRecipients)
          .set({
            outboxId: sql`(select ${emailOutbox.id} from ${emailOutbox} where ${emailOutbox.dedupeKey} = ${dedupeKey})`,
            queuedAt: now,
          })
          .where(eq(newsletterRecipients.id, recipient.id));
      }
      return batch.length;
    });
  }
  return { queued };
}

/** Every few seconds on each instance; the turns above keep the rate for all of them together. */
export function startNewsletterSender(
  runtime: { database: { db: Database }; clock: Clock },
  settings: SenderSettings,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = runNewsletterPass(runtime.database.db, settings, runtime.clock.now())
      .then(
        () => {},
        (error) => console.error(`[news] newsletter pass failed: ${(error as Error).message}`),
      )
      .finally(() => (running = undefined));
  }, settings.everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
