import { and, eq, lt, sql, type SQL } from "drizzle-orm";
import { createRequire } from "node:module";
import type nodemailerType from "nodemailer";
import type { Transporter } from "nodemailer";
import type { Database } from "~/db/client.server";
import { emailOutbox } from "~/db/schema";

export interface EmailAttachment {
  filename: string;
  contentType: string;
  contentBase64: string;
  /** Set for an image the HTML shows inline as `cid:{cid}`. */
  cid?: string;
}

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  /** The same message as HTML; `text` stays its plain-text part. */
  html?: string;
  attachments?: EmailAttachment[];
  /** The order it is about, kept on the outbox row (orders/ writes the order's history entry when it queues it). */
  orderId?: string;
  /** The member it is about, for the member's email history in the admin. */
  memberId?: number;
  /** Makes queuing idempotent: a second message with the same key is not queued. */
  dedupeKey?: string;
  /** It holds a link that signs in or acts for someone: the stored body goes once it is sent. */
  bodyExpiresOnSend?: boolean;
  /** Extra headers, e.g. a newsletter's List-Unsubscribe (RFC 8058). */
  headers?: Record<string, string>;
}

/** What an outbox row whose body held a sign-in or renew link keeps once the message has gone. */
export const EXPIRED_BODY_TEXT =
  "This message held a personal link. Its text was removed from the outbox once it was sent.";

/** The columns that replace such a body, set in the same update that marks the message sent or failed. */
const expiredBody = {
  textBody: sql<string>`case when ${emailOutbox.bodyExpiresOnSend} then ${EXPIRED_BODY_TEXT} else ${emailOutbox.textBody} end`,
  htmlBody: sql<string | null>`case when ${emailOutbox.bodyExpiresOnSend} then null else ${emailOutbox.htmlBody} end`,
};

/**
 * The insert that queues an email, not yet run: for a statement that also stores what the email is
 * about, where the dedupe key may be SQL (made from the id that statement's insert took).
 */
export function emailInsert(db: Pick<Database, "insert">, email: QueuedEmail) {
  return db.insert(emailOutbox).values(emailRow(email)).onConflictDoNothing({ target: emailOutbox.dedupeKey });
}

/** An email as the outbox stores it; the dedupe key may be SQL. */
export type QueuedEmail = Omit<OutgoingEmail, "dedupeKey"> & { dedupeKey?: string | SQL };

/** The outbox row of an email, for `emailInsert` or an insert-select (`insertRowSelect`). */
export function emailRow(email: QueuedEmail) {
  return {
    toAddress: email.to,
    subject: email.subject,
    textBody: email.text,
    htmlBody: email.html ?? null,
    attachments: email.attachments?.length ? email.attachments : null,
    orderId: email.orderId ?? null,
    memberId: email.memberId ?? null,
    dedupeKey: email.dedupeKey,
    bodyExpiresOnSend: email.bodyExpiresOnSend ?? false,
    headers: email.headers ?? null,
  };
}

/**
 * Every email goes through the outbox table first, so nothing is lost when SMTP is down or not
 * configured. Call it inside the transaction that stores what the email is about. False for a repeat
 * (its dedupe key was queued before).
 */
export async function queueEmail(db: Pick<Database, "insert">, email: QueuedEmail): Promise<boolean> {
  return (await emailInsert(db, email).returning({ id: emailOutbox.id })).length > 0;
}

/**
 * The insert that queues an email as a named part of a larger statement (decision 102):
 * `name as (insert … returning id)`, which yields no row for a repeat, so what the statement
 * selects from it is written only for an email that was queued.
 */
export function queuedEmailCte(db: Pick<Database, "insert">, email: QueuedEmail, name: string): SQL {
  return sql`${sql.identifier(name)} as (${emailInsert(db, email).returning({ id: emailOutbox.id }).getSQL()})`;
}

export interface MailSettings {
  smtpUrl?: string;
  from: string;
}

const MAX_ATTEMPTS = 5;

const requireHere = createRequire(import.meta.url);

/** An SMTP transport, or none without SMTP_URL. Nodemailer is loaded only then: a shop without SMTP never needs it (decision 090). */
export function createTransport(settings: MailSettings): Transporter | undefined {
  if (!settings.smtpUrl) return undefined;
  const nodemailer = requireHere("nodemailer") as typeof nodemailerType;
  return nodemailer.createTransport(settings.smtpUrl);
}

/**
 * Sends what is pending. Without SMTP the messages stay pending and are written to the log, so a
 * developer sees them. Safe to run from several instances: each row is claimed by bumping its
 * attempt counter with a conditional update before sending.
 */
export async function deliverPendingEmails(
  db: Database,
  settings: MailSettings,
  transport = createTransport(settings),
  log: (line: string) => void = (line) => console.log(line),
): Promise<{ sent: number; failed: number }> {
  // Without SMTP a message is logged once (attempts 0 to 1) and stays pending: only those not yet
  // logged are read, or the first 20 kept would fill every pass and hide each later one.
  const pending = await db
    .select()
    .from(emailOutbox)
    .where(
      and(
        eq(emailOutbox.status, "pending"),
        transport ? lt(emailOutbox.attempts, MAX_ATTEMPTS) : eq(emailOutbox.attempts, 0),
      ),
    )
    .orderBy(emailOutbox.id)
    .limit(20);
  let sent = 0;
  let failed = 0;
  for (const message of pending) {
    if (!transport) {
      log(
        `[mail] (no SMTP_URL: kept in outbox #${message.id}) to=${message.toAddress} subject=${JSON.stringify(message.subject)}`,
      );
      await db.update(emailOutbox).set({ attempts: 1 }).where(eq(emailOutbox.id, message.id));
      continue;
    }
    const claimed = await db
      .update(emailOutbox)
      .set({ attempts: sql`${emailOutbox.attempts} + 1` })
      .where(
        and(
          eq(emailOutbox.id, message.id),
          eq(emailOutbox.attempts, message.attempts),
          eq(emailOutbox.status, "pending"),
        ),
      )
      .returning({ id: emailOutbox.id });
    if (!claimed.length) continue;
    try {
      await transport.sendMail({
        from: settings.from,
        to: message.toAddress,
        subject: message.subject,
        text: message.textBody,
        html: message.htmlBody ?? undefined,
        headers: message.headers ?? undefined,
        attachments: message.attachments?.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.contentBase64, "base64"),
          cid: a.cid,
        })),
      });
      await db
        .update(emailOutbox)
        .set({ status: "sent", sentAt: new Date(), lastError: null, ...expiredBody })
        .where(eq(emailOutbox.id, message.id));
      sent++;
    } catch (error) {
      failed++;
      const last = message.attempts + 1 >= MAX_ATTEMPTS;
      await db
        .update(emailOutbox)
        .set({
          lastError: (error as Error).message.slice(0, 500),
          status: last ? "failed" : "pending",
          ...(last ? expiredBody : {}),
        })
        .where(eq(emailOutbox.id, message.id));
      log(`[mail] sending #${message.id} failed: ${(error as Error).message}`);
    }
  }
  return { sent, failed };
}
