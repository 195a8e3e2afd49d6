import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/*
 * Photo bytes cross the driver as base64 text, decoded and encoded by the database. PGlite runs
 * inside this process, on its main thread, and its own conversion of a bytea parameter or result is
 * slow: measured on a 1 MB master, 0.6-1.5 s to insert and 0.2-0.3 s to read, during which no page
 * is answered; as base64 text, 0.05-0.13 s and 0.01-0.09 s. PostgreSQL does the same work in its own
 * process. See decision 078.
 */

/** A value for a bytea column in an insert. */
export const bytesParam = (bytes: Uint8Array): SQL =>
  sql`decode(${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")}, 'base64')`;

/** Selects a bytea column as base64; pass the result to `fromBase64`. */
export const bytesColumn = (column: AnyPgColumn): SQL<string> => sql<string>`encode(${column}, 'base64')`;

export const fromBase64 = (text: string): Buffer => Buffer.from(text, "base64");
