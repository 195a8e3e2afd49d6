/** Events, their ticket options and dates (the tickets sold and the scans at the door are tickets.ts). */
import { sql } from "drizzle-orm";
import { boolean, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

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
  descriptionPoints: jsonb("description_points")
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  includes: jsonb("includes")
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  location: text("location").notNull(),
  participants: text("participants").notNull(),
  earlyBird: text("early_bird"),
  images: jsonb("images")
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  /** Alt text of each image, by position in `images`. */
  imageAlts: jsonb("image_alts")
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
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
