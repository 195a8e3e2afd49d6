import { desc, lt } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { adminAuditLog } from "~/db/schema";

type Executor = Pick<Database, "insert">;

export interface AuditEntry {
  /** e.g. "product.update" */
  action: string;
  entity: string;
  entityId?: string | number | null;
  /** One line for the activity list: "Changed price of Candy Earrings from R 350.00 to R 400.00". */
  summary: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Written in the same transaction as the change it describes, so the log never tells of a write that rolled back. */
export async function recordAudit(tx: Executor, entry: AuditEntry, at: Date): Promise<void> {
  await tx.insert(adminAuditLog).values({
    at,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
    summary: entry.summary.slice(0, 500),
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/**
 * The fields that differ between two versions of a row, as before/after objects (the activity page
 * shows these rather than whole rows).
 */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
): { before: Record<string, unknown>; after: Record<string, unknown>; fields: string[] } {
  const fields = Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return {
    fields,
    before: Object.fromEntries(fields.map((f) => [f, before[f]])),
    after: Object.fromEntries(fields.map((f) => [f, after[f]])),
  };
}

export const AUDIT_PAGE_SIZE = 50;

/** Newest first, a page at a time by id (keyset), so the log can grow without slowing the page. */
export async function listAudit(db: Database, beforeId: number | null) {
  const rows = await db
    .select()
    .from(adminAuditLog)
    .where(beforeId ? lt(adminAuditLog.id, beforeId) : undefined)
    .orderBy(desc(adminAuditLog.id))
    .limit(AUDIT_PAGE_SIZE + 1);
  const more = rows.length > AUDIT_PAGE_SIZE;
  const page = rows.slice(0, AUDIT_PAGE_SIZE);
  return {
    entries: page.map((r) => ({ ...r, at: r.at.toISOString() })),
    nextBeforeId: more ? page[page.length - 1].id : null,
  };
}
