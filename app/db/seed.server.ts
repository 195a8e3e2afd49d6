import { eq } from "drizzle-orm";
import { catalogSeed, testProductSeed } from "~/content/catalog";
import { eventsSeed } from "~/content/events";
import { membershipsSeed } from "~/content/memberships";
import { postsSeed } from "~/content/posts";
import { GALLERY_SEED } from "~/content/gallery";
import type { Database } from "./client.server";
import { appSettings, blogPosts, catalogItems, events, galleryPhotos, membershipTiers, ticketOptions } from "./schema";

/** Set once the seed content is in: later starts add nothing, so what the owner renamed or deleted stays so. */
export const SEEDED_KEY = "seed.content";

const toDate = (iso: string | null) => (iso ? new Date(iso) : null);

/**
 * Inserts the spec's catalog, events, ticket options, tiers, sample posts and gallery photos into a new database.
 * Each row is inserted only when its key is absent, and only until the seed has run once: a product
 * the owner renamed (new slug) or a post she deleted does not come back on the next start.
 */
export async function seedDatabase(db: Database, now?: Date): Promise<void> {
  // The seeded catalog is the shop's stock from before the site, dated by the shop's clock (a year
  // before its now): nothing of it sorts as newly added ahead of a piece the owner marks New, whatever
  // the real time of the first start (without a clock, the database's time, as tests that seed do).
  const addedAt = now ? new Date(now.getTime() - 365 * 24 * 3_600_000) : undefined;
  await db.transaction(async (tx) => {
    const [done] = await tx.select({ key: appSettings.key }).from(appSettings).where(eq(appSettings.key, SEEDED_KEY));
    if (done) return;
    await tx
      .insert(catalogItems)
      .values(
        [...catalogSeed, testProductSeed].map((item) => ({
          slug: item.slug,
          name: item.name,
          kind: item.kind,
          priceCents: item.priceCents,
          priceText: item.priceText,
          description: item.description,
          images: item.images,
          stockQuantity: item.stockQuantity,
          visible: item.visible ?? true,
          sortOrder: item.sortOrder,
          createdAt: addedAt,
          updatedAt: addedAt,
        })),
      )
      .onConflictDoNothing({ target: catalogItems.slug });

    await tx
      .insert(events)
      .values(
        eventsSeed.map(({ ticketOptions: _options, startsAt, endsAt, ...event }) => ({
          ...event,
          startsAt: toDate(startsAt),
          endsAt: toDate(endsAt),
        })),
      )
      .onConflictDoNothing({ target: events.id });

    const options = eventsSeed.flatMap((event) =>
      event.ticketOptions.map((option, index) => ({
        eventId: event.id,
        type: option.type,
        priceCents: option.priceCents,
        description: option.description,
        availableFrom: toDate(option.availableFrom),
        availableUntil: toDate(option.availableUntil),
        capacity: option.capacity,
        sortOrder: index + 1,
      })),
    );
    if (options.length) {
      await tx
        .insert(ticketOptions)
        .values(options)
        .onConflictDoNothing({ target: [ticketOptions.eventId, ticketOptions.type] });
    }

    await tx.insert(membershipTiers).values(membershipsSeed).onConflictDoNothing({ target: membershipTiers.slug });
    await tx.insert(blogPosts).values(postsSeed).onConflictDoNothing({ target: blogPosts.slug });
    await tx.insert(galleryPhotos).values(GALLERY_SEED).onConflictDoNothing({ target: galleryPhotos.src });
    await tx.insert(appSettings).values({ key: SEEDED_KEY, value: "1" }).onConflictDoNothing();
  });
}
