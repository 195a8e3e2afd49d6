import { and, count, desc, eq, ilike, isNotNull, isNull, or } from "drizzle-orm";
import { recordAudit } from "~/admin/audit.server";
import type { Database } from "~/db/client.server";
import { contactSubmissions } from "~/db/schema";

export const MESSAGES_PAGE_SIZE = 25;

const likeTerm = (q: string) =>
  `%${q
    .trim()
    .slice(0, 100)
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The list's "Answered" filter: every message, those waiting for her, or those she has answered. */
export const MESSAGE_STATES = ["", "unanswered", "answered"] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

export const readMessageState = (raw: string): MessageState =>
  (MESSAGE_STATES as readonly string[]).includes(raw) ? (raw as MessageState) : "";

/** Every contact message, newest first, searchable by name, email, subject or message. */
export async function listMessages(db: Database, query: { q: string; page: number; state?: MessageState }) {
  const term = query.q.trim() ? likeTerm(query.q) : null;
  const state =
    query.state === "unanswered"
      ? isNull(contactSubmissions.answeredAt)
      : query.state === "answered"
        ? isNotNull(contactSubmissions.answeredAt)
        : undefined;
  const words = term
    ? or(
        ilike(contactSubmissions.firstName, term),
        ilike(contactSubmissions.lastName, term),
        ilike(contactSubmissions.email, term),
        ilike(contactSubmissions.subject, term),
        ilike(contactSubmissions.message, term),
      )
    : undefined;
  const where = and(words, state);
  const [{ total }] = await db.select({ total: count() }).from(contactSubmissions).where(where);
  const pages = Math.max(1, Math.ceil(total / MESSAGES_PAGE_SIZE));
  const page = Math.min(Math.max(1, query.page), pages);
  const rows = await db
    .select()
    .from(contactSubmissions)
    .where(where)
    .orderBy(desc(contactSubmissions.createdAt), desc(contactSubmissions.id))
    .limit(MESSAGES_PAGE_SIZE)
    .offset((page - 1) * MESSAGES_PAGE_SIZE);
  return {
    total,
    page,
    pages,
    messages: rows.map((r) => ({
      id: r.id,
      createdAt: r.createdAt.toISOString(),
      name: `${r.firstName} ${r.lastName}`,
      email: r.email,
      subject: r.subject,
      message: r.message,
      answeredAt: r.answeredAt?.toISOString() ?? null,
    })),
  };
}

/** Messages still waiting for an answer (the dashboard's count; the partial index keeps it cheap). */
export async function unansweredCount(db: Database): Promise<number> {
  const [{ total }] = await db
    .select({ total: count() })
    .from(contactSubmissions)
    .where(isNull(contactSubmissions.answeredAt));
  return total;
}

/**
 * Marks a message answered (or not, to undo a wrong tap), with an entry in the activity log.
 * Marking it as it already is changes nothing. False when there is no such message.
 */
export async function markAnswered(db: Database, id: number, answered: boolean, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [message] = await tx
      .select({
        id: contactSubmissions.id,
        subject: contactSubmissions.subject,
        answeredAt: contactSubmissions.answeredAt,
      })
      .from(contactSubmissions)
      .where(eq(contactSubmissions.id, id))
      .for("update");
    if (!message) return false;
    if (Boolean(message.answeredAt) === answered) return true;
    await tx
      .update(contactSubmissions)
      .set({ answeredAt: answered ? now : null })
      .where(eq(contactSubmissions.id, id));
    await recordAudit(
      tx,
      {
        action: answered ? "message.answered" : "message.unanswered",
        entity: "contact_submission",
        entityId: id,
        summary: `${answered ? "Marked answered" : "Marked not answered"}: "${message.subject}"`,
        before: { answered: Boolean(message.answeredAt) },
        after: { answered },
      },
      now,
    );
    return true;
  });
}
