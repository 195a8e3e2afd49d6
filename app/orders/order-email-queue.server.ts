import { sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { queuedEmailCte, type OutgoingEmail } from "~/email/outbox.server";
import { orderHistoryEntry, orderHistoryInsert } from "./order-history.server";

/** An email about an order: the outbox keeps the order's id on its row. */
export type OrderEmail = OutgoingEmail & { orderId: string };

/**
 * Queues an email about an order and writes its "email" line in the order's history, dated `at` (the
 * shop's clock), in one statement and only if it was queued (not a repeat): one trip to the database,
 * which matters inside a transaction (decision 092). False for a repeat.
 */
export async function queueOrderEmail(
  db: Pick<Database, "insert" | "execute">,
  email: OrderEmail,
  at: Date,
): Promise<boolean> {
  const queued = queuedOrderEmailStatement(db, email, "queued", at);
  const result = await db.execute(
    sql`with ${queued.cte} ${orderHistoryInsert([queued.historyEntry])} returning 1 as queued`,
  );
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
}

/**
 * An email about an order as two parts of a larger statement (decision 102): `cte`, the named insert
 * that queues it (`name as (insert … returning id)`), and `historyEntry`, its line in the order's
 * history, selected from that insert so that a repeat (a dedupe key already queued) writes none.
 */
export function queuedOrderEmailStatement(
  db: Pick<Database, "insert">,
  email: OrderEmail,
  name: string,
  at: Date,
): { cte: SQL; historyEntry: SQL } {
  const summary = `Email queued to ${email.to}: ${email.subject}`;
  const attachments = JSON.stringify(email.attachments?.map((a) => a.filename) ?? []);
  const detail = sql`jsonb_build_object('outboxId', ${sql.identifier(name)}.id, 'attachments', ${attachments}::jsonb)`;
  return {
    cte: queuedEmailCte(db, email, name),
    historyEntry: orderHistoryEntry({
      orderId: email.orderId,
      kind: "email",
      summary,
      at,
      detail,
      from: sql`${sql.identifier(name)}`,
    }),
  };
}
