/** Card subscriptions: a member's monthly charge at PayFast (or the simulator), and the simulator's own record of one. */
import { boolean, date, index, integer, pgTable, serial, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { members } from "./members";
import { orders } from "./orders";

/**
 * A membership bought as a card subscription: made pending with its checkout order, active with the first
 * verified charge. Each later charge is an order of its own naming the member, so the months, receipts and
 * income are counted as every other payment is.
 */
export const memberSubscriptions = pgTable(
  "member_subscriptions",
  {
    id: serial("id").primaryKey(),
    /** The checkout order: PayFast's `m_payment_id`, repeated in every charge's notification. */
    orderId: uuid("order_id")
      .notNull()
      .unique()
      .references(() => orders.id),
    memberId: integer("member_id").references(() => members.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["payfast", "simulator"] }).notNull(),
    /** PayFast's subscription token, known from the first notification; renewals are matched by it. */
    token: text("token").unique(),
    tierSlug: text("tier_slug").notNull(),
    /** The price agreed at checkout: a notification for another amount is refused. */
    amountCents: integer("amount_cents").notNull(),
    /**
     * pending: checkout started, no verified charge yet; active: charged every month; cancelled: stopped at
     * the provider (by the member, the owner or PayFast), final.
     */
    status: text("status", { enum: ["pending", "active", "cancelled"] })
      .notNull()
      .default("pending"),
    /** The South African day the provider will charge next, as far as we know. */
    nextChargeOn: date("next_charge_on", { mode: "string" }),
    /** The charge due on paid-until did not arrive: the owner sees "card failed" until one does. */
    cardFailedAt: timestamp("card_failed_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /**
     * The owner paused the charges (decision 130): the day PayFast charges again and the member's
     * calendar starts again; null when not paused.
     */
    pausedUntil: date("paused_until", { mode: "string" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("member_subscriptions_member_idx").on(t.memberId, t.status)],
);

/**
 * The payment simulator's side of a card subscription (what PayFast keeps at its end), so that
 * `npm start` can show monthly charges, a failing card and a cancel at the provider without keys.
 */
export const simulatedSubscriptions = pgTable("simulated_subscriptions", {
  token: text("token").primaryKey(),
  /** The checkout's `m_payment_id` and `custom_str1`, repeated in each charge's notification as PayFast does. */
  paymentRef: text("payment_ref").notNull(),
  customRef: text("custom_ref").notNull(),
  itemName: text("item_name").notNull(),
  amountCents: integer("amount_cents").notNull(),
  runDate: date("run_date", { mode: "string" }).notNull(),
  status: text("status", { enum: ["ACTIVE", "PAUSED", "CANCELLED"] })
    .notNull()
    .default("ACTIVE"),
  /** The next charge is declined (no notification, as PayFast sends none for a failed card). */
  failNext: boolean("fail_next").notNull().default(false),
  charges: integer("charges").notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * A PayFast notification whose validate call timed out or could not connect (decision 131): signed and
 * checked otherwise, kept so it is neither applied unconfirmed nor lost; the sweeper retries the
 * validate call and then asks the subscriptions API, and applies the charge once.
 */
export const payfastHeldNotifications = pgTable("payfast_held_notifications", {
  /** PayFast's `pf_payment_id`: the same notification resent is held once. */
  paymentId: text("payment_id").primaryKey(),
  subscriptionId: integer("subscription_id")
    .notNull()
    .references(() => memberSubscriptions.id, { onDelete: "cascade" }),
  /** The body as posted, in its order (the validate call and the signature need it as it came). */
  body: text("body").notNull(),
  /** held: waiting; applied: confirmed and applied (or PayFast's resend was); refused: PayFast said INVALID. */
  status: text("status", { enum: ["held", "applied", "refused"] })
    .notNull()
    .default("held"),
  attempts: integer("attempts").notNull().default(0),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
  settledAt: timestamp("settled_at", { withTimezone: true }),
});
