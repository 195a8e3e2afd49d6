/** A product's rows: one per combination of its option values, each with its own stock, price and photo (issue 44). */
import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { catalogItems } from "./catalog";

export const productVariants = pgTable(
  "product_variants",
  {
    id: serial("id").primaryKey(),
    catalogItemId: integer("catalog_item_id")
      .notNull()
      .references(() => catalogItems.id, { onDelete: "cascade" }),
    /** The value of the product's first option ("M"). */
    value1: text("value1").notNull(),
    /** The value of its second option ("Mustard"); empty when the product has one option. */
    value2: text("value2").notNull().default(""),
    /** Units left to sell; null means not counted. */
    stockQuantity: integer("stock_quantity"),
    /** Null: the product's price. */
    priceCents: integer("price_cents"),
    /** One of the product's photos, shown when this row is chosen. */
    image: text("image"),
    /** Switched off by the owner, or left over when she removed its value: kept for the orders that name it. */
    enabled: boolean("enabled").notNull().default(true),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("product_variants_values_idx").on(t.catalogItemId, t.value1, t.value2),
    index("product_variants_item_idx").on(t.catalogItemId, t.position),
    index("product_variants_enabled_idx")
      .on(t.catalogItemId)
      .where(sql`${t.enabled}`),
  ],
);
