import { sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import fc from "fast-check";
import { rowsOf } from "~/analytics/ingest.server";
import type { DatabaseHandle } from "~/db/client.server";

/** How many inputs each generated-input property tries (PROPERTY_RUNS=100 for a quick look). */
export const RUNS = Number(process.env.PROPERTY_RUNS ?? 1000);

/**
 * Strings a person, a bot or an attacker might send: odd Unicode, markup, NUL and other control
 * characters, empty and blank, and strings longer than any field allows (up to `hugeUpTo`).
 */
export function hostileStrings(options: { extra?: string[]; hugeUpTo?: number } = {}) {
  const hugeUpTo = options.hugeUpTo ?? 12_000;
  return fc.oneof(
    fc.string(),
    fc.string({ unit: "grapheme", maxLength: 80 }),
    fc.string({ unit: "binary", maxLength: 80 }),
    fc.constantFrom(
      "",
      " ",
      "\u0000",
      "\u0007",
      "\uFEFF",
      "\u202Eevil",
      "<script>alert(1)</script>",
      "' or 1=1 --",
      "🐝🍯",
      "ñandú",
      ...(options.extra ?? []),
    ),
    fc.string({ minLength: Math.min(400, hugeUpTo), maxLength: hugeUpTo }),
  );
}

/** Rows in a table now. */
export async function countRows(handle: DatabaseHandle, table: PgTable): Promise<number> {
  return Number(rowsOf<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from ${table}`))[0]!.n);
}
