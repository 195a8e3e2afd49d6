/** Discount codes the owner runs (issue 40): what each takes off, from what, when, and how often. */
import { sql } from "drizzle-orm";
import { boolean, date, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

export const discountCodes = pgTable(
  "discount_codes",
  {
    id: serial("id").primaryKey(),
    /** Letters and digits, stored upper-case; a buyer may type it in any case. */
    code: text("code").notNull(),
    kind: text("kind", { enum: ["percent", "fixed"] }).notNull(),
    /** Percent (1-100) or cents off. */
    amount: integer("amount").notNull(),
    scope: text("scope", { enum: ["everything", "products", "events", "first-membership-month", "items"] }).notNull(),
    /** With scope "items": what it applies to, as the pricing rule names them ("catalog:12", "event:3"). */
    items: jsonb("items")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** South African calendar days, both included; null is open-ended. */
    validFrom: date("valid_from", { mode: "string" }),
    validUntil: date("valid_until", { mode: "string" }),
    /** Uses by paid orders and live holds together; null is no limit. */
    totalUses: integer("total_uses"),
    /** Uses per customer email (case-insensitive); null is no limit. */
    usesPerEmail: integer("uses_per_email"),
    /** The lines it applies to must come to at least this, before discounts. */
    minimumSpendCents: integer("minimum_spend_cents").notNull().default(0),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Stored upper-case, but the index holds it to one spelling even if a row were ever written otherwise.
  (t) => [uniqueIndex("discount_codes_code_idx").on(sql`upper(${t.code})`)],
);
