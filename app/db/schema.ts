import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

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
    images: jsonb("images").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** Alt text of each image, by position in `images`; a missing one falls back to the item's name. */
    imageAlts: jsonb("image_alts").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** Units left to sell; null means unlimited. */
    stockQuantity: integer("stock_quantity"),
    visible: boolean("visible").notNull().default(true),
    /** An item with orders is archived rather than deleted: hidden everywhere, kept for its orders. */
    archived: boolean("archived").notNull().default(false),
    sortOrder: integer("sort_order").notNull().default(0),
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

export const events = pgTable("events", {
  id: text("id").primaryKey(),
  title: text("title").notNull(),
  /** Display text for the dates, e.g. "24 September 2025". */
  dates: text("dates").notNull(),
  timeText: text("time_text"),
  /** When the event starts (null for recurring or to-be-announced); ticket sales end then. */
  startsAt: timestamp("starts_at", { withTimezone: true }),
  endsAt: timestamp("ends_at", { withTimezone: true }),
  recurring: text("recurring"),
  focus: text("focus").notNull(),
  priceText: text("price_text").notNull(),
  description: text("description").notNull(),
  descriptionPoints: jsonb("description_points").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  includes: jsonb("includes").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  location: text("location").notNull(),
  participants: text("participants").notNull(),
  earlyBird: text("early_bird"),
  images: jsonb("images").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  /** Alt text of each image, by position in `images`. */
  imageAlts: jsonb("image_alts").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  ticketsOnSale: boolean("tickets_on_sale").notNull().default(true),
  /** The simulator-only demo workshop, labelled as a demo on every page that shows it. */
  demo: boolean("demo").notNull().default(false),
  /** Hidden from every public page, kept for its orders. */
  archived: boolean("archived").notNull().default(false),
  sortOrder: integer("sort_order").notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const ticketOptions = pgTable(
  "ticket_options",
  {
    id: serial("id").primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    priceCents: integer("price_cents").notNull(),
    description: text("description").notNull(),
    availableFrom: timestamp("available_from", { withTimezone: true }),
    availableUntil: timestamp("available_until", { withTimezone: true }),
    /** Seats for this option (per session for recurring events); null means no limit of its own. */
    capacity: integer("capacity"),
    sortOrder: integer("sort_order").notNull().default(0),
  },
  (t) => [uniqueIndex("ticket_options_event_type_idx").on(t.eventId, t.type)],
);

export const membershipTiers = pgTable("membership_tiers", {
  slug: text("slug").primaryKey(),
  tierSet: text("tier_set", { enum: ["newer", "older"] }).notNull(),
  name: text("name").notNull(),
  priceCents: integer("price_cents"),
  priceText: text("price_text").notNull(),
  description: text("description").notNull(),
  features: jsonb("features").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  popular: boolean("popular").notNull().default(false),
  visible: boolean("visible").notNull().default(true),
  sortOrder: integer("sort_order").notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const blogPosts = pgTable(
  "blog_posts",
  {
    id: serial("id").primaryKey(),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    excerpt: text("excerpt").notNull(),
    content: text("content").notNull(),
    author: text("author").notNull().default("Honey Bee"),
    category: text("category").notNull().default("General"),
    publishedOn: date("published_on", { mode: "string" }).notNull(),
    /** false: a draft, absent from /blog, the sitemap and its own URL. */
    published: boolean("published").notNull().default(true),
    image: text("image"),
    imageAlt: text("image_alt"),
    views: integer("views").notNull().default(0),
    likes: integer("likes").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("blog_posts_published_idx").on(t.publishedOn)],
);

/** One row per (post, analytics session): a view or like counts once per session. */
export const blogPostReactions = pgTable(
  "blog_post_reactions",
  {
    postId: integer("post_id")
      .notNull()
      .references(() => blogPosts.id, { onDelete: "cascade" }),
    sessionId: text("session_id").notNull(),
    kind: text("kind", { enum: ["view", "like"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.sessionId, t.kind] })],
);

export const contactSubmissions = pgTable(
  "contact_submissions",
  {
    id: serial("id").primaryKey(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    sessionId: text("session_id"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [index("contact_submissions_created_idx").on(t.createdAt)],
);

export const analyticsEvents = pgTable(
  "analytics_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    sessionId: text("session_id").notNull(),
    eventType: text("event_type").notNull(),
    pagePath: text("page_path").notNull(),
    itemName: text("item_name"),
    referrer: text("referrer"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("analytics_events_created_idx").on(t.createdAt),
    index("analytics_events_type_created_idx").on(t.eventType, t.createdAt),
  ],
);

/**
 * Daily rollups of analytics_events (days in South African time), filled by an incremental job for
 * days that have ended, so the dashboard reads a few thousand rows instead of every event.
 */
export const analyticsDaily = pgTable(
  "analytics_daily",
  {
    day: date("day", { mode: "string" }).notNull(),
    eventType: text("event_type").notNull(),
    pagePath: text("page_path").notNull(),
    events: integer("events").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.eventType, t.pagePath] })],
);

/** Sessions with at least one page view per day: distinct visitors over any range of days. */
export const analyticsDailySessions = pgTable(
  "analytics_daily_sessions",
  {
    day: date("day", { mode: "string" }).notNull(),
    sessionId: text("session_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.sessionId] })],
);

/** Sessions per referring host per day. */
export const analyticsDailyReferrers = pgTable(
  "analytics_daily_referrers",
  {
    day: date("day", { mode: "string" }).notNull(),
    referrerHost: text("referrer_host").notNull(),
    sessions: integer("sessions").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.referrerHost] })],
);

/** Days already rolled up; raw events after the last one are read live. */
export const analyticsRollupDays = pgTable("analytics_rollup_days", {
  day: date("day", { mode: "string" }).primaryKey(),
  rolledAt: timestamp("rolled_at", { withTimezone: true }).notNull().defaultNow(),
});

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
    customerSearch: text("customer_search").generatedAlwaysAs(
      sql`lower(customer_first_name || ' ' || customer_last_name || ' ' || customer_email) || ' ' || regexp_replace(customer_phone, '[^0-9]', '', 'g')`,
    ),
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
  },
  (t) => [
    index("orders_created_idx").on(t.createdAt),
    index("orders_status_idx").on(t.status),
    index("orders_email_idx").on(sql`lower(${t.customerEmail}) text_pattern_ops`),
    index("orders_type_created_idx").on(t.orderType, t.createdAt),
    index("orders_attention_idx").on(t.needsAttention),
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

/** Dates of a recurring event's sessions (the monthly workshop), set by the owner. */
export const eventSessions = pgTable(
  "event_sessions",
  {
    id: serial("id").primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    capacity: integer("capacity"),
  },
  (t) => [uniqueIndex("event_sessions_event_start_idx").on(t.eventId, t.startsAt)],
);

/** One per seat of a paid ticket or workshop order: what the buyer shows at the door. */
export const tickets = pgTable(
  "tickets",
  {
    id: serial("id").primaryKey(),
    /** At least 128 random bits, base64url: the QR code's content and the /ticket/{code} address. */
    code: text("code").notNull().unique(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id),
    ticketOptionId: integer("ticket_option_id").references(() => ticketOptions.id),
    seatNumber: integer("seat_number").notNull(),
    holderName: text("holder_name").notNull(),
    sessionStartsAt: timestamp("session_starts_at", { withTimezone: true }),
    sessionEndsAt: timestamp("session_ends_at", { withTimezone: true }),
    /** Cancelled by a refund: no longer admits. */
    voided: boolean("voided").notNull().default(false),
    checkedInAt: timestamp("checked_in_at", { withTimezone: true }),
    checkedInDevice: text("checked_in_device"),
    createdAt: createdAt(),
  },
  (t) => [index("tickets_order_idx").on(t.orderId), index("tickets_event_idx").on(t.eventId, t.sessionStartsAt)],
);

/** Every scan at the door, online or synced later; a second device admitting the same ticket offline is a conflict. */
export const checkIns = pgTable(
  "check_ins",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    deviceId: text("device_id").notNull(),
    /** When the door scanned it (the device's clock for offline scans). */
    scannedAt: timestamp("scanned_at", { withTimezone: true }).notNull(),
    /** A device's own id for an offline scan, so a repeated sync stores it once. */
    clientScanId: text("client_scan_id"),
    outcome: text("outcome", { enum: ["admitted", "already", "invalid", "undone", "conflict"] }).notNull(),
    offline: boolean("offline").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("check_ins_ticket_idx").on(t.ticketId), uniqueIndex("check_ins_client_scan_idx").on(t.deviceId, t.clientScanId)],
);

export const orderLines = pgTable("order_lines", {
  id: serial("id").primaryKey(),
  orderId: uuid("order_id")
    .notNull()
    .references(() => orders.id, { onDelete: "cascade" }),
  catalogItemId: integer("catalog_item_id").references(() => catalogItems.id),
  ticketOptionId: integer("ticket_option_id").references(() => ticketOptions.id),
  membershipSlug: text("membership_slug").references(() => membershipTiers.slug),
  displayName: text("display_name").notNull(),
  quantity: integer("quantity").notNull(),
  unitPriceCents: integer("unit_price_cents").notNull(),
});

/** Webhook deliveries already processed, keyed by the provider's webhook id, so a repeat changes nothing. */
export const paymentWebhookEvents = pgTable("payment_webhook_events", {
  webhookId: text("webhook_id").primaryKey(),
  provider: text("provider").notNull(),
  eventType: text("event_type").notNull(),
  payload: jsonb("payload").$type<unknown>().notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Units held by a checkout until it is paid (converted) or abandoned (released).
 * stock_key names what is held: "catalog:{id}", "ticket:{optionId}" or "ticket:{optionId}:{session}".
 */
export const stockHolds = pgTable(
  "stock_holds",
  {
    id: serial("id").primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    stockKey: text("stock_key").notNull(),
    quantity: integer("quantity").notNull(),
    status: text("status", { enum: ["held", "converted", "released"] })
      .notNull()
      .default("held"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** A keyed hash of the buyer's address, to cap the units one client holds unpaid (never the address itself). */
    clientKey: text("client_key"),
    createdAt: createdAt(),
  },
  (t) => [
    index("stock_holds_key_status_idx").on(t.stockKey, t.status),
    index("stock_holds_order_idx").on(t.orderId),
    index("stock_holds_client_idx").on(t.clientKey, t.status),
  ],
);

export const adminSessions = pgTable(
  "admin_sessions",
  {
    /** SHA-256 of the cookie's random token, so a database leak does not leak live sessions. */
    idHash: text("id_hash").primaryKey(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    userAgent: text("user_agent"),
  },
  (t) => [index("admin_sessions_expires_idx").on(t.expiresAt)],
);

export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: serial("id").primaryKey(),
    clientKey: text("client_key").notNull(),
    succeeded: boolean("succeeded").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("login_attempts_client_idx").on(t.clientKey, t.attemptedAt)],
);

/** Generic fixed-window counters for rate limits that must hold across app instances. */
export const rateLimitHits = pgTable(
  "rate_limit_hits",
  {
    bucket: text("bucket").notNull(),
    clientKey: text("client_key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    hits: integer("hits").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.clientKey, t.windowStart] })],
);

export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: serial("id").primaryKey(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    /** Files sent with the message (QR codes inline by cid, .ics calendar files). */
    attachments: jsonb("attachments").$type<{ filename: string; contentType: string; contentBase64: string; cid?: string }[]>(),
    /** The order it is about, for the order's history. */
    orderId: uuid("order_id"),
    /** The member it is about, for the member's email history in /admin/members. */
    memberId: integer("member_id"),
    /** What queued it, e.g. "contact:12" or "order-confirmation:{orderId}", unique so a retry queues nothing twice. */
    dedupeKey: text("dedupe_key").unique(),
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

/** Small key/value settings kept by the app itself (for example the admin password hash). */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: updatedAt(),
});

/** Raw bytes (PostgreSQL bytea), as Node Buffers. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * An uploaded photo: decoded, rotated upright and stripped of metadata. `hash` names its content, so
 * its URLs never change meaning and can be cached for ever (decision 078).
 */
export const mediaAssets = pgTable(
  "media_assets",
  {
    hash: text("hash").primaryKey(),
    originalName: text("original_name").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    /** pending: renditions still being made; ready: every rendition stored; failed: see `error`. */
    status: text("status", { enum: ["pending", "ready", "failed"] }).notNull().default("pending"),
    error: text("error"),
    /** The upright, metadata-free master (WebP, at most 2400 px) that renditions are made from. */
    master: bytea("master").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("media_assets_status_idx").on(t.status)],
);

export const mediaRenditions = pgTable(
  "media_renditions",
  {
    hash: text("hash")
      .notNull()
      .references(() => mediaAssets.hash, { onDelete: "cascade" }),
    format: text("format", { enum: ["avif", "webp"] }).notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    bytes: bytea("bytes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.hash, t.format, t.width] })],
);

/** Photos on /events-gallery, in the owner's order. */
export const galleryPhotos = pgTable(
  "gallery_photos",
  {
    id: serial("id").primaryKey(),
    src: text("src").notNull().unique(),
    alt: text("alt").notNull(),
    caption: text("caption"),
    sortOrder: integer("sort_order").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("gallery_photos_sort_idx").on(t.sortOrder, t.id)],
);

/** Every write the owner makes in the admin, newest first on /admin/activity. */
export const adminAuditLog = pgTable(
  "admin_audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** e.g. "product.update", "event.create", "settings.update" */
    action: text("action").notNull(),
    entity: text("entity").notNull(),
    entityId: text("entity_id"),
    summary: text("summary").notNull(),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
  },
  (t) => [index("admin_audit_log_at_idx").on(t.at)],
);

/**
 * A member: made or extended by a paid membership order (Yoco has no recurring billing, so the site keeps
 * its members and asks them to renew). One per email address.
 */
export const members = pgTable(
  "members",
  {
    id: serial("id").primaryKey(),
    /** Lower case, so one address is one member however it was typed. */
    email: text("email").notNull(),
    name: text("name").notNull(),
    phone: text("phone").notNull(),
    tierSlug: text("tier_slug")
      .notNull()
      .references(() => membershipTiers.slug),
    /** The tier the member chose for their next renewal (a change of tier takes effect then); null keeps the current one. */
    nextTierSlug: text("next_tier_slug").references(() => membershipTiers.slug),
    /**
     * active: paid; due: paid-until has come and the renewal is not paid yet (7 days' grace); lapsed: not
     * renewed in the grace week; cancelled: asked to stop, keeps access until paid-until, is not reminded.
     */
    status: text("status", { enum: ["active", "due", "lapsed", "cancelled"] })
      .notNull()
      .default("active"),
    /** The South African calendar day the next payment is due: the member has paid for every day before it. */
    paidUntil: date("paid_until", { mode: "string" }).notNull(),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull(),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** What the owner's search matches: name and email in lower case. */
    search: text("search").generatedAlwaysAs(sql`lower(name || ' ' || email)`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("members_email_idx").on(t.email),
    index("members_status_idx").on(t.status, t.paidUntil),
    index("members_tier_idx").on(t.tierSlug),
  ],
);

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

/** One-time sign-in links for /account: only the token's hash is kept; a link works once, for 15 minutes. */
export const memberLoginTokens = pgTable(
  "member_login_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    memberId: integer("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("member_login_tokens_expires_idx").on(t.expiresAt)],
);

/** Signed-in members' sessions (the cookie's token hashed); they grant /account only, never the admin. */
export const memberSessions = pgTable(
  "member_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    memberId: integer("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("member_sessions_expires_idx").on(t.expiresAt)],
);
