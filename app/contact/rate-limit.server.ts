import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rateLimitHits } from "~/db/schema";

export interface FixedWindow {
  bucket: string;
  limit: number;
  windowMs: number;
}

/**
 * Counts one hit for this client in the current fixed window and says whether it is still within the
 * limit. The counter lives in the database, so every server instance shares it.
 */
export async function hitRateLimit(db: Database, window: FixedWindow, clientKey: string, now: Date): Promise<boolean> {
  const windowStart = new Date(Math.floor(now.getTime() / window.windowMs) * window.windowMs);
  const [row] = await db
    .insert(rateLimitHits)
    .values({ bucket: window.bucket, clientKey, windowStart, hits: 1 })
    .onConflictDoUpdate({
      target: [rateLimitHits.bucket, rateLimitHits.clientKey, rateLimitHits.windowStart],
      set: { hits: sql`${rateLimitHits.hits} + 1` },
    })
    .returning({ hits: rateLimitHits.hits });
  return (row?.hits ?? 1) <= window.limit;
}
