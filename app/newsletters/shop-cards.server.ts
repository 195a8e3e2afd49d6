import { and, asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { catalogItems, events, type NewsletterCard } from "~/db/schema";
import { formatRand } from "~/lib/money";

/** The form's value for "no card"; a card is `product:{id}` or `event:{id}`. */
export const NO_CARD = "";

export const cardValue = (card: Pick<NewsletterCard, "kind" | "ref"> | null) =>
  card ? `${card.kind}:${card.ref}` : NO_CARD;

const eventPath = (id: string) =>
  id === "tablecloth-workshop" ? "/workshop/tablecloth-skirt" : `/tickets/${encodeURIComponent(id)}`;

/** What the owner may show as a card: the products and events a visitor can open (no demo workshop). */
export async function shopCardChoices(db: Database) {
  const [products, eventRows] = await Promise.all([
    db
      .select({ id: catalogItems.id, name: catalogItems.name })
      .from(catalogItems)
      .where(and(eq(catalogItems.kind, "product"), eq(catalogItems.visible, true), eq(catalogItems.archived, false)))
      .orderBy(asc(catalogItems.name)),
    db
      .select({ id: events.id, title: events.title, dates: events.dates })
      .from(events)
      .where(and(eq(events.archived, false), eq(events.demo, false)))
      .orderBy(asc(events.title)),
  ]);
  return {
    products: products.map((p) => ({ value: `product:${p.id}`, label: p.name })),
    events: eventRows.map((e) => ({ value: `event:${e.id}`, label: `${e.title} (${e.dates})` })),
  };
}

export type ShopCardChoices = Awaited<ReturnType<typeof shopCardChoices>>;

/**
 * The card for the form's value, read from the shop now (name, first photo, price, page), or
 * undefined when the value names nothing the owner could have picked.
 */
export async function resolveShopCard(db: Database, value: string): Promise<NewsletterCard | null | undefined> {
  if (value === NO_CARD) return null;
  const [kind, ...rest] = value.split(":");
  const ref = rest.join(":");
  if (kind === "product" && /^[1-9][0-9]{0,8}$/.test(ref)) {
    const [item] = await db
      .select()
      .from(catalogItems)
      .where(
        and(
          eq(catalogItems.id, Number(ref)),
          eq(catalogItems.kind, "product"),
          eq(catalogItems.visible, true),
          eq(catalogItems.archived, false),
        ),
      );
    if (!item) return undefined;
    return {
      kind: "product",
      ref,
      name: item.name,
      image: item.images[0] ?? null,
      imageAlt: item.imageAlts[0]?.trim() || item.name,
      price: item.priceCents === null ? item.priceText : formatRand(item.priceCents),
      path: `/product/${encodeURIComponent(item.slug)}`,
    };
  }
  if (kind === "event" && ref) {
    const [event] = await db
      .select()
      .from(events)
      .where(and(eq(events.id, ref), eq(events.archived, false), eq(events.demo, false)));
    if (!event) return undefined;
    return {
      kind: "event",
      ref,
      name: `${event.title}, ${event.dates}`,
      image: event.images[0] ?? null,
      imageAlt: event.imageAlts[0]?.trim() || event.title,
      price: event.priceText,
      path: eventPath(event.id),
    };
  }
  return undefined;
}
