import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rateLimitHits } from "~/db/schema";
import type { ClientKey } from "~/lib/client-address.server";

/**
 * Whom a window counts: a client (its ClientKey, the /64 of an IPv6 address) or, for limits on what
 * was asked rather than who asked, a named subject such as `email:<hash>`. A raw address is neither.
 */
export type LimitKey = ClientKey | `email:${string}`;

export interface FixedWindow {
  bucket: string;
  limit: number;
  windowMs: number;
}

/**
 * Counts one hit for this client in the current fixed window and says whether it is still within the
 * limit. The counter lives in the database, so every server instance shares it.
 */
export async function hitRateLimit(
  db: Database,
  window: FixedWindow,
  clientKey: LimitKey,
  now: Date,
): Promise<boolean> {
  const [row] = await rateLimitHit(db, window, clientKey, now);
  return withinLimit(window, row?.hits);
}

/** Whether a window's count, as `rateLimitHit` returned it, is still within the limit. */
export const withinLimit = (window: FixedWindow, hits: number | undefined): boolean => (hits ?? 1) <= window.limit;

/**
 * The statement that counts the hit and returns the window's count (`hits`), not yet run: for a
 * statement that also does what the hit is for, only when the count is within the limit.
 */
export function rateLimitHit(db: Pick<Database, "insert">, window: FixedWindow, clientKey: LimitKey, now: Date) {
  const windowStart = new Date(Math.floor(now.getTime() / window.windowMs) * window.windowMs);
  return db
    .insert(rateLimitHits)
    .values({ bucket: window.bucket, clientKey, windowStart, hits: 1 })
    .onConflictDoUpdate({
      target: [rateLimitHits.bucket, rateLimitHits.clientKey, rateLimitHits.windowStart],
      set: { hits: sql`${rateLimitHits.hits} + 1` },
    })
    .returning({ hits: rateLimitHits.hits });
}
