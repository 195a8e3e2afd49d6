import { and, count, desc, ilike, or } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { contactSubmissions } from "~/db/schema";

export const MESSAGES_PAGE_SIZE = 25;

const likeTerm = (q: string) => `%${q.trim().slice(0, 100).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every contact message, newest first, searchable by name, email, subject or message. */
export async function listMessages(db: Database, query: { q: string; page: number }) {
  const term = query.q.trim() ? likeTerm(query.q) : null;
  const where = term
    ? or(
        ilike(contactSubmissions.firstName, term),
        ilike(contactSubmissions.lastName, term),
        ilike(contactSubmissions.email, term),
        ilike(contactSubmissions.subject, term),
        ilike(contactSubmissions.message, term),
      )
    : undefined;
  const [{ total }] = await db.select({ total: count() }).from(contactSubmissions).where(and(where));
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
    })),
  };
}
