/** Subscribers, the consents they gave or withdrew (kept as evidence), newsletters and who each went to. */
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

/**
 * One row per address that asked for the news or refused it. A member or customer who never wrote
 * in has no row; a refusal (an unsubscribe) keeps the row as `unsubscribed`, so every segment leaves
 * her out.
 */
export const subscribers = pgTable(
  "subscribers",
  {
    id: serial("id").primaryKey(),
    /** Lower case, so one address is one subscriber however it was typed. */
    email: text("email").notNull(),
    name: text("name"),
    /** pending: asked, the confirmation link not yet used; subscribed: consent in force; unsubscribed: refused. */
    status: text("status", { enum: ["pending", "subscribed", "unsubscribed"] }).notNull(),
    /** The confirmation link's token, hashed; cleared once used. */
    confirmTokenHash: text("confirm_token_hash"),
    confirmExpiresAt: timestamp("confirm_expires_at", { withTimezone: true }),
    subscribedAt: timestamp("subscribed_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("subscribers_email_idx").on(t.email), index("subscribers_status_idx").on(t.status)],
);

/**
 * The evidence of each consent and each withdrawal (POPIA puts the burden of proof on the shop): the
 * exact wording shown, the form and page, when, how it was confirmed, and a keyed hash of the address,
 * which still proves whose it was if the address itself is later erased.
 */
export const consentRecords = pgTable(
  "consent_records",
  {
    id: serial("id").primaryKey(),
    subscriberId: integer("subscriber_id").references(() => subscribers.id, { onDelete: "set null" }),
    /** asked: a sign-up awaiting its confirmation link; given: consent in force; withdrawn: refused. */
    action: text("action", { enum: ["asked", "given", "withdrawn"] }).notNull(),
    wording: text("wording").notNull(),
    /** Which form: footer, blog, checkout, account, unsubscribe. */
    form: text("form").notNull(),
    /** The page's path the form was on. */
    page: text("page").notNull(),
    /** How it was confirmed, in words: "confirmation link in an email to the address", "one-click unsubscribe", … */
    confirmedBy: text("confirmed_by").notNull(),
    /** HMAC-SHA256 of the lower-case address, keyed by the session secret (the holds' construction). */
    addressHash: text("address_hash").notNull(),
    /** The newsletter whose link withdrew it, for that newsletter's unsubscribe count. */
    newsletterId: integer("newsletter_id"),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("consent_records_subscriber_idx").on(t.subscriberId),
    index("consent_records_hash_idx").on(t.addressHash),
    index("consent_records_newsletter_idx").on(t.newsletterId),
  ],
);

/** Who a newsletter is for: one of the picker's segments and what was chosen in it. */
export type NewsletterSegment =
  | { kind: "subscribers" }
  | { kind: "tiers"; tiers: string[] }
  | { kind: "attendees"; events: string[] }
  | { kind: "buyers"; products: number[] };

/**
 * A product or event from the shop shown as a card in a newsletter: what the owner saw when she chose
 * it (name, photo, price, the page's path), kept with the newsletter as the record of what went.
 */
export interface NewsletterCard {
  kind: "product" | "event";
  ref: string;
  name: string;
  image: string | null;
  imageAlt: string;
  price: string;
  path: string;
}

export const newsletters = pgTable(
  "newsletters",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    /** The blog's formatting (app/blog/markdown.server.ts). */
    body: text("body").notNull(),
    /** Up to three photos from the media library (their /media address) with what each shows. */
    photos: jsonb("photos").$type<{ src: string; alt: string }[]>().notNull().default([]),
    /** A published post sent as the newsletter: its title and text are read when the newsletter goes. */
    postId: integer("post_id"),
    card: jsonb("card").$type<NewsletterCard>(),
    segment: jsonb("segment").$type<NewsletterSegment>().notNull(),
    /** draft; scheduled: goes at sendAt; sending: recipients listed, queued into the outbox at the rate; sent. */
    status: text("status", { enum: ["draft", "scheduled", "sending", "sent"] })
      .notNull()
      .default("draft"),
    sendAt: timestamp("send_at", { withTimezone: true }),
    /** The last time an instance queued a batch: instances take turns by a conditional update on it. */
    lastBatchAt: timestamp("last_batch_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("newsletters_status_idx").on(t.status, t.sendAt)],
);

/**
 * Each newsletter's recipients, listed once when it starts to go: one row per address, so each is
 * queued once (its outbox row's dedupe key is the row's id) across instances and restarts.
 */
export const newsletterRecipients = pgTable(
  "newsletter_recipients",
  {
    id: serial("id").primaryKey(),
    newsletterId: integer("newsletter_id")
      .notNull()
      .references(() => newsletters.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    name: text("name"),
    /** consent, member or customer: the rule that lets the shop write to her. */
    basis: text("basis", { enum: ["consent", "member", "customer"] }).notNull(),
    outboxId: integer("outbox_id"),
    queuedAt: timestamp("queued_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("newsletter_recipients_address_idx").on(t.newsletterId, t.email),
    index("newsletter_recipients_queue_idx").on(t.newsletterId, t.outboxId),
  ],
);
