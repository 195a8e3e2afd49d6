import { and, eq } from "drizzle-orm";
import { isPlausibleSlug } from "~/catalog/slug";
import type { Database } from "~/db/client.server";
import { membershipTiers } from "~/db/schema";

/** A tier a visitor may see: a hidden one is not found (its page is a 404 and checkout refuses it). */
export async function findMembershipTier(db: Database, slug: string) {
  if (!isPlausibleSlug(slug)) return undefined;
  const [row] = await db
    .select()
    .from(membershipTiers)
    .where(and(eq(membershipTiers.slug, slug), eq(membershipTiers.visible, true)))
    .limit(1);
  return row;
}
