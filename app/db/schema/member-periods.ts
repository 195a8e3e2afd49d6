/** The months members were given: apart from members.ts, since a paid month belongs to an order (and orders name their member). */
import { date, index, integer, pgTable, serial, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { members } from "./members";
import { orders } from "./orders";

/** Every month a member was given: by a payment (one per order, so a payment never counts twice) or as the owner's gift. */
export const memberPeriods = pgTable(
  "member_periods",
  {
    id: serial("id").primaryKey(),
    memberId: integer("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["payment", "gift"] }).notNull(),
    orderId: uuid("order_id")
      .unique()
      .references(() => orders.id),
    tierSlug: text("tier_slug").notNull(),
    amountCents: integer("amount_cents").notNull(),
    /** The paid-until day before and after this period: it covers the days from `startsOn` up to `endsOn`. */
    startsOn: date("starts_on", { mode: "string" }).notNull(),
    endsOn: date("ends_on", { mode: "string" }).notNull(),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [index("member_periods_member_idx").on(t.memberId, t.createdAt)],
);
