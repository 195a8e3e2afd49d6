import { and, asc, eq, inArray } from "drizzle-orm";
import { postsSeed } from "~/content/posts";
import type { Database } from "~/db/client.server";
import { blogPosts, membershipTiers } from "~/db/schema";
import { hasStarted } from "~/events/event-phase";
import { listEventsByPhase } from "~/events/events.server";

/** The home page's event card button: the spec names two special cases. */
export function eventCardAction(eventId: string): { label: string; href: string } {
  if (eventId === "tablecloth-workshop") return { label: "Learn More", href: "/workshop/tablecloth-skirt" };
  if (eventId === "heritage-radiance") return { label: "Learn More", href: "/tickets/heritage-radiance" };
  return { label: "Reserve Your Spot", href: `/tickets/${encodeURIComponent(eventId)}` };
}

/**
 * Everything the home page reads from the database: the next 4 upcoming events, the newer visible membership tiers
 * and the two sample posts while published.
 */
export async function loadHome(db: Database, now: Date) {
  const sampleSlugs = postsSeed.slice(0, 2).map((p) => p.slug);
  const [eventRows, tiers, posts] = await Promise.all([
    listEventsByPhase(db, now).then(({ upcoming }) => upcoming.slice(0, 4)),
    db
      .select()
      .from(membershipTiers)
      .where(and(eq(membershipTiers.tierSet, "newer"), eq(membershipTiers.visible, true)))
      .orderBy(asc(membershipTiers.sortOrder)),
    db
      .select()
      .from(blogPosts)
      .where(and(inArray(blogPosts.slug, sampleSlugs), eq(blogPosts.published, true))),
  ]);
  return {
    events: eventRows.map((e) => ({
      id: e.id,
      title: e.title,
      dates: e.dates,
      priceText: e.priceText,
      focus: e.focus,
      image: e.images[0] ?? null,
      demo: e.demo,
      // Under way (between the days of a multi-day event): shown, no longer sold.
      action: hasStarted(e, now)
        ? { label: "View Event", href: `/tickets/${encodeURIComponent(e.id)}` }
        : eventCardAction(e.id),
    })),
    tiers: tiers.map((t) => ({
      slug: t.slug,
      name: t.name,
      priceText: t.priceText,
      description: t.description,
      features: t.features,
      popular: t.popular,
    })),
    posts: sampleSlugs
      .map((slug) => posts.find((p) => p.slug === slug))
      .filter((p) => p !== undefined)
      .map((p) => ({
        slug: p.slug,
        title: p.title,
        excerpt: p.excerpt,
        author: p.author,
        category: p.category,
        publishedOn: p.publishedOn,
        image: p.image,
      })),
  };
}

export type HomeData = Awaited<ReturnType<typeof loadHome>>;
