/** Orders, their lines, history and refunds, payment webhooks seen, and the email outbox. */
import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { discountCodes } from "./discount-codes";
import { catalogItems, membershipTiers } from "./catalog";
import { ticketOptions } from "./events";
import { members } from "./members";
import { productVariants } from "./product-options";

/**
 * The expression of orders.customer_search, as one line of SQL text: drizzle-kit compares this text with the
 * migrations' snapshot, so a line break in it would read as a changed column.
 */
const CUSTOMER_SEARCH_SQL =
  "lower(customer_first_name || ' ' || customer_last_name || ' ' || customer_email) || ' ' || " +
  "regexp_replace(customer_phone, '[^0-9]', '', 'g')";

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Short reference shown to the buyer. */
    reference: text("reference").notNull().unique(),
    orderType: text("order_type").notNull(),
    itemName: text("item_name").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("ZAR"),
    status: text("status", {
      enum: ["pending", "paid", "failed", "cancelled", "expired", "refunded", "partially_refunded"],
    })
      .notNull()
      .default("pending"),
    /** A paid order the shop could not honour as sold (its unit was gone): the owner must act. */
    needsAttention: boolean("needs_attention").notNull().default(false),
    attentionReason: text("attention_reason"),
    fulfilmentStatus: text("fulfilment_status", { enum: ["unfulfilled", "fulfilled"] })
      .notNull()
      .default("unfulfilled"),
    /** posted, collected or service done */
    fulfilmentMethod: text("fulfilment_method"),
    fulfilledAt: timestamp("fulfilled_at", { withTimezone: true }),
    refundedCents: integer("refunded_cents").notNull().default(0),
    ownerNote: text("owner_note"),
    /**
     * What the owner's search box matches against a name or phone: the name and email in lower case and
     * the phone's digits, kept by the database, so a search compares one column instead of computing
     * these for every order (50,000 orders under 100 ms, issue 20).
     */
    customerSearch: text("customer_search").generatedAlwaysAs(sql.raw(CUSTOMER_SEARCH_SQL)),
    customerFirstName: text("customer_first_name").notNull(),
    customerLastName: text("customer_last_name").notNull(),
    customerEmail: text("customer_email").notNull(),
    customerPhone: text("customer_phone").notNull(),
    customerAddress: text("customer_address").notNull(),
    /** The member a renewal is for (set by the renewal checkout); a first membership order finds or makes its member by email. */
    memberId: integer("member_id").references((): AnyPgColumn => members.id),
    sessionId: text("session_id"),
    provider: text("provider").notNull(),
    /** The payment provider's checkout id (the spec's "{provider}_checkout_id"). */
    yocoCheckoutId: text("yoco_checkout_id").unique(),
    providerPaymentId: text("provider_payment_id"),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    /** Made by a bag's checkout (issue 39): the dashboard's bag funnel counts these once paid. */
    fromBag: boolean("from_bag").notNull().default(false),
    /** The discount code the buyer gave (issue 40): its uses are counted from these orders. */
    discountCodeId: integer("discount_code_id").references(() => discountCodes.id),
  },
  (t) => [
    index("orders_created_idx").on(t.createdAt),
    index("orders_status_idx").on(t.status),
    index("orders_email_idx").on(sql`lower(${t.customerEmail}) text_pattern_ops`),
    index("orders_type_created_idx").on(t.orderType, t.createdAt),
    index("orders_attention_idx").on(t.needsAttention),
    // Only a bag's orders, by date: the dashboard's bag funnel counts them per period.
    index("orders_from_bag_created_idx")
      .on(t.createdAt)
      .where(sql`${t.fromBag}`),
    index("orders_discount_code_idx")
      .on(t.discountCodeId)
      .where(sql`${t.discountCodeId} is not null`),
  ],
);

/** Everything that happened to an order, for its page: status changes, webhooks, emails, owner actions. */
export const orderEvents = pgTable(
  "order_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** created, paid, failed, cancelled, expired, webhook, email, fulfilled, refund, attention, note */
    kind: text("kind").notNull(),
    summary: text("summary").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>(),
  },
  (t) => [index("order_events_order_idx").on(t.orderId, t.at)],
);

/** A refund asked of the provider; its result arrives by webhook. */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    amountCents: integer("amount_cents").notNull(),
    status: text("status", { enum: ["requested", "pending", "succeeded", "failed"] })
      .notNull()
      .default("requested"),
    /** Return the item to stock or the seat to sale once the refund succeeds. */
    restock: boolean("restock").notNull().default(false),
    providerRefundId: text("provider_refund_id"),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    failureReason: text("failure_reason"),
    createdAt: createdAt(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [index("refunds_order_idx").on(t.orderId), index("refunds_provider_idx").on(t.providerRefundId)],
);

export const orderLines = pgTable(
  "order_lines",
  {
    id: serial("id").primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    catalogItemId: integer("catalog_item_id").references(() => catalogItems.id),
    ticketOptionId: integer("ticket_option_id").references(() => ticketOptions.id),
    membershipSlug: text("membership_slug").references(() => membershipTiers.slug),
    /** The product's row (size, colour) this line sold; its stock is the row's (issue 44). */
    variantId: integer("variant_id").references(() => productVariants.id),
    displayName: text("display_name").notNull(),
    quantity: integer("quantity").notNull(),
    /** The list price of one unit when the order was made. */
    unitPriceCents: integer("unit_price_cents").notNull(),
    /** Taken off the whole line by a member's perk or a code (issue 40); charged = unit price × quantity − this. */
    discountCents: integer("discount_cents").notNull().default(0),
    /** Why, in the owner's words: "10% Creative Bee", "LAUNCH20". */
    discountReason: text("discount_reason"),
    /** A ticket line's holder per seat, in seat order (issue 39); null on other lines and older orders (the buyer). */
    attendeeNames: jsonb("attendee_names").$type<string[]>(),
    /** The member whose perks priced this line (issue 40): her month's free tickets are counted from these lines. */
    perkMemberId: integer("perk_member_id").references((): AnyPgColumn => members.id),
    /** Units of this line that were one of the member's free tickets of the month. */
    perkFreeTickets: integer("perk_free_tickets").notNull().default(0),
    /**
     * A line of a product or service is posted, handed over or done on its own (issue 39, decision 137);
     * a ticket or membership line is never marked and keeps the default.
     */
    fulfilmentStatus: text("fulfilment_status", { enum: ["unfulfilled", "fulfilled"] })
      .notNull()
      .default("unfulfilled"),
    fulfilmentMethod: text("fulfilment_method"),
    fulfilledAt: timestamp("fulfilled_at", { withTimezone: true }),
  },
  // A bag's order has several lines: the owner's list and the CSV read them by order (issue 39).
  (t) => [
    index("order_lines_order_idx").on(t.orderId, t.id),
    index("order_lines_perk_member_idx").on(t.perkMemberId),
    // What each size or colour sold (issue 44) reads only lines of a product's rows.
    index("order_lines_variant_idx")
      .on(t.variantId)
      .where(sql`${t.variantId} is not null`),
  ],
);

/**
 * What a refund of some units of one line covers (issue 39, decision 124): how many, what that gave back
 * (unitsRefundCents, from what the line was charged) and, for seats, which tickets. A later refund reads
 * what is left per line from these rows of refunds not failed.
 */
export const refundLines = pgTable(
  "refund_lines",
  {
    id: serial("id").primaryKey(),
    refundId: uuid("refund_id")
      .notNull()
      .references(() => refunds.id, { onDelete: "cascade" }),
    orderLineId: integer("order_line_id")
      .notNull()
      .references(() => orderLines.id, { onDelete: "cascade" }),
    units: integer("units").notNull(),
    amountCents: integer("amount_cents").notNull(),
    /** The seats' tickets this refund voids (ticket lines only). */
    ticketIds: jsonb("ticket_ids").$type<number[]>(),
  },
  (t) => [index("refund_lines_refund_idx").on(t.refundId), index("refund_lines_line_idx").on(t.orderLineId)],
);

/** Webhook deliveries already processed, keyed by the provider's webhook id, so a repeat changes nothing. */
export const paymentWebhookEvents = pgTable("payment_webhook_events", {
  webhookId: text("webhook_id").primaryKey(),
  provider: text("provider").notNull(),
  eventType: text("event_type").notNull(),
  payload: jsonb("payload").$type<unknown>().notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: serial("id").primaryKey(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    /** Files sent with the message (QR codes inline by cid, .ics calendar files). */
    attachments:
      jsonb("attachments").$type<{ filename: string; contentType: string; contentBase64: string; cid?: string }[]>(),
    /** The order it is about, for the order's history. */
    orderId: uuid("order_id"),
    /** The member it is about, for the member's email history in /admin/members. */
    memberId: integer("member_id"),
    /** What queued it, e.g. "contact:12" or "order-confirmation:{orderId}", unique so a retry queues nothing twice. */
    dedupeKey: text("dedupe_key").unique(),
    /**
     * The body holds a link that signs someone in or acts for them (a sign-in or renew link): once the
     * message is sent, or given up on, the body is replaced so the outbox and its backups keep no
     * working link (decision 108).
     */
    bodyExpiresOnSend: boolean("body_expires_on_send").notNull().default(false),
    /** Extra headers, e.g. a newsletter's List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
    headers: jsonb("headers").$type<Record<string, string>>(),
    status: text("status", { enum: ["pending", "sent", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [index("email_outbox_status_idx").on(t.status), index("email_outbox_member_idx").on(t.memberId)],
);
