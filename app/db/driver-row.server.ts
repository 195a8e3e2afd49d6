import { getTableColumns, type Table } from "drizzle-orm";

/**
 * A row a raw statement's `returning *` gave back (through `db.execute`), as Drizzle's own query
 * would have read it: a write that stores several rows in one statement (decision 092) still hands
 * its caller a typed row. Both drivers leave dates as the text Postgres sent, as Drizzle expects.
 */
export function rowFromDriver<T extends Table>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T["$inferSelect"];
}
