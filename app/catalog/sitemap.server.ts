import { and, asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { blogPosts, catalogItems, events, membershipTiers } from "~/db/schema";

/** Public pages that exist regardless of the data. */
const STATIC_PATHS = [
  "/",
  "/styled-collections",
  "/consultation-services",
  "/events",
  "/workshop/tablecloth-skirt",
  "/events-gallery",
  "/about",
  "/contact",
  "/blog",
  "/privacy",
];

/** Every public, indexable path: static pages plus visible products, events and tiers, and published posts. */
export async function sitemapPaths(db: Database): Promise<string[]> {
  const [items, eventRows, tiers, posts] = await Promise.all([
    db
      .select({ slug: catalogItems.slug })
      .from(catalogItems)
      .where(and(eq(catalogItems.visible, true), eq(catalogItems.archived, false)))
      .orderBy(asc(catalogItems.sortOrder)),
    db
      .select({ id: events.id })
      .from(events)
      .where(eq(events.archived, false))
      .orderBy(asc(events.sortOrder), asc(events.id)),
    db
      .select({ slug: membershipTiers.slug })
      .from(membershipTiers)
      .where(eq(membershipTiers.visible, true))
      .orderBy(asc(membershipTiers.sortOrder)),
    db
      .select({ slug: blogPosts.slug })
      .from(blogPosts)
      .where(eq(blogPosts.published, true))
      .orderBy(asc(blogPosts.publishedOn)),
  ]);
  return [
    ...STATIC_PATHS,
    ...items.map((i) => `/product/${encodeURIComponent(i.slug)}`),
    // The monthly workshop's page is /workshop/tablecloth-skirt (listed above); /tickets/tablecloth-workshop redirects there.
    ...eventRows.filter((e) => e.id !== "tablecloth-workshop").map((e) => `/tickets/${encodeURIComponent(e.id)}`),
    ...tiers.map((t) => `/membership/${encodeURIComponent(t.slug)}`),
    ...posts.map((p) => `/blog/${encodeURIComponent(p.slug)}`),
  ];
}

const xmlEscape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function sitemapXml(siteUrl: string, paths: string[]): string {
  const urls = paths.map((p) => `  <url><loc>${xmlEscape(siteUrl + p)}</loc></url>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/** Private areas stay out of search results. */
export function robotsTxt(siteUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /checkout",
    "Disallow: /account",
    "Disallow: /order-confirmation",
    "Disallow: /order/",
    "Disallow: /payments",
    "Disallow: /api/",
    "Disallow: /your-data",
    "",
    `Sitemap: ${siteUrl}/sitemap.xml`,
    "",
  ].join("\n");
}
