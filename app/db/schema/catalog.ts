/** Products, services and membership tiers (the stock held for checkouts is stock.ts). */
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

/** Products, wardrobe solutions and consultation services. */
export const catalogItems = pgTable(
  "catalog_items",
  {
    id: serial("id").primaryKey(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    /** product: styled collection item; solution: wardrobe solution; service: consultation service */
    kind: text("kind", { enum: ["product", "solution", "service"] }).notNull(),
    /** Null when the price is not a number ("Contact Us"); such an item is not sold through checkout. */
    priceCents: integer("price_cents"),
    priceText: text("price_text").notNull(),
    description: text("description").notNull(),
    /** Image paths: slots under public/images or uploaded photos under /media (first one is the card image). */
    images: jsonb("images")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Alt text of each image, by position in `images`; a missing one falls back to the item's name. */
    imageAlts: jsonb("image_alts")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /**
     * A product's options in the owner's order, at most two (Size: S, M, L; Colour: Indigo, Mustard); empty for a
     * product sold as one thing. Each combination is a row of product_variants with its own stock (issue 44).
     */
    optionNames: jsonb("option_names")
      .$type<{ name: string; values: string[] }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Units left to sell; null means unlimited. */
    stockQuantity: integer("stock_quantity"),
    visible: boolean("visible").notNull().default(true),
    /** An item with orders is archived rather than deleted: hidden everywhere, kept for its orders. */
    archived: boolean("archived").notNull().default(false),
    sortOrder: integer("sort_order").notNull().default(0),
    /** The owner marked it "New": its card shows the badge until this moment (30 days after marking). */
    newUntil: timestamp("new_until", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("catalog_items_kind_idx").on(t.kind),
    index("catalog_items_name_idx").on(t.name),
    index("catalog_items_sort_idx").on(t.sortOrder, t.id),
  ],
);

/** A product's former slugs, each redirecting to the item's current page. */
export const catalogSlugRedirects = pgTable("catalog_slug_redirects", {
  oldSlug: text("old_slug").primaryKey(),
  itemId: integer("item_id")
    .notNull()
    .references(() => catalogItems.id, { onDelete: "cascade" }),
  createdAt: createdAt(),
});

export const membershipTiers = pgTable("membership_tiers", {
  slug: text("slug").primaryKey(),
  tierSet: text("tier_set", { enum: ["newer", "older"] }).notNull(),
  name: text("name").notNull(),
  priceCents: integer("price_cents"),
  priceText: text("price_text").notNull(),
  description: text("description").notNull(),
  features: jsonb("features")
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  popular: boolean("popular").notNull().default(false),
  visible: boolean("visible").notNull().default(true),
  sortOrder: integer("sort_order").notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  /** The tier's perks (issue 40, decision 127), read by the pricing rule for an active or due member. */
  perkPercentOffEvents: integer("perk_percent_off_events").notNull().default(0),
  perkFreeTicketsPerMonth: integer("perk_free_tickets_per_month").notNull().default(0),
  /** "any", or the ids of the events the month's free tickets are for. */
  perkFreeTicketEvents: jsonb("perk_free_ticket_events")
    .$type<"any" | string[]>()
    .notNull()
    .default(sql`'"any"'::jsonb`),
  perkAllEventsFree: boolean("perk_all_events_free").notNull().default(false),
  perkPercentOffProducts: integer("perk_percent_off_products").notNull().default(0),
});
