import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { events, membershipTiers } from "~/db/schema";
import { perksInWords, type TierPerks } from "./perk-words";

/** Every event's title by id, for naming the events a tier's free tickets are for. */
async function eventTitles(db: Database): Promise<Record<string, string>> {
  const rows = await db.select({ id: events.id, title: events.title }).from(events).where(eq(events.archived, false));
  return Object.fromEntries(rows.map((row) => [row.id, row.title]));
}

/** A tier's perks in words, for its public page. */
export async function perksOfTier(db: Database, tier: TierPerks): Promise<string[]> {
  return perksInWords(tier, await eventTitles(db));
}

/** The perks of the tier with this slug, in words (none for an unknown slug), for the member's /account. */
export async function perksOfTierSlug(db: Database, slug: string): Promise<string[]> {
  const [tier] = await db.select().from(membershipTiers).where(eq(membershipTiers.slug, slug)).limit(1);
  return tier ? perksOfTier(db, tier) : [];
}
