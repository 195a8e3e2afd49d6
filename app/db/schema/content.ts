/** Blog posts and reactions, contact messages, uploaded photos and the gallery. */
import { sql } from "drizzle-orm";
import {
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
} from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

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
    /** Who may read the text: everyone, any member with access today, or members of `audienceTiers` (decision 118). */
    audience: text("audience", { enum: ["public", "members", "tiers"] })
      .notNull()
      .default("public"),
    audienceTiers: jsonb("audience_tiers")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
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
    /** When the owner marked it answered; null while it waits for her (the dashboard counts these). */
    answeredAt: timestamp("answered_at", { withTimezone: true }),
  },
  (t) => [
    index("contact_submissions_created_idx").on(t.createdAt),
    index("contact_submissions_unanswered_idx")
      .on(t.createdAt)
      .where(sql`${t.answeredAt} is null`),
  ],
);

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
    status: text("status", { enum: ["pending", "ready", "failed"] })
      .notNull()
      .default("pending"),
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
