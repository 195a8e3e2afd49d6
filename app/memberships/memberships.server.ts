import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { membershipTiers } from "~/db/schema";

export async function findMembershipTier(db: Database, slug: string) {
  const [row] = await db.select().from(membershipTiers).where(eq(membershipTiers.slug, slug)).limit(1);
  return row;
}
