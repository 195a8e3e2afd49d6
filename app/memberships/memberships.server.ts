import { eq } from "drizzle-orm";
import { isPlausibleSlug } from "~/catalog/slug";
import type { Database } from "~/db/client.server";
import { membershipTiers } from "~/db/schema";

export async function findMembershipTier(db: Database, slug: string) {
  if (!isPlausibleSlug(slug)) return undefined;
  const [row] = await db.select().from(membershipTiers).where(eq(membershipTiers.slug, slug)).limit(1);
  return row;
}
