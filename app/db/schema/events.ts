/** Events, their ticket options and dates, the tickets sold and every scan at the door. */
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { orders } from "./orders";

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
    /** Eight characters read aloud or typed at the door (app/tickets/short-code.ts); unique per event, admits only there. */
    shortCode: text("short_code").notNull(),
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
    /** When the refund cancelled it: the door says "Refunded on 26 Nov". */
    voidedAt: timestamp("voided_at", { withTimezone: true }),
    checkedInAt: timestamp("checked_in_at", { withTimezone: true }),
    checkedInDevice: text("checked_in_device"),
    createdAt: createdAt(),
  },
  (t) => [
    index("tickets_order_idx").on(t.orderId),
    index("tickets_event_idx").on(t.eventId, t.sessionStartsAt),
    uniqueIndex("tickets_event_short_code_idx").on(t.eventId, t.shortCode),
  ],
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
    outcome: text("outcome", { enum: ["admitted", "already", "invalid", "undone", "conflict", "refunded", "other-event", "stale"] }).notNull(),
    offline: boolean("offline").notNull().default(false),
    /** An offline sync's device clock minus the server's when it synced: its scan times are corrected by it. */
    deviceClockSkewMs: bigint("device_clock_skew_ms", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [index("check_ins_ticket_idx").on(t.ticketId), uniqueIndex("check_ins_client_scan_idx").on(t.deviceId, t.clientScanId)],
);
