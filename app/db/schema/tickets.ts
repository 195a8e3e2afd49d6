/** The tickets sold and every scan at the door: apart from events.ts, since a ticket belongs to an order. */
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { events, ticketOptions } from "./events";
import { orders } from "./orders";

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
    outcome: text("outcome", {
      enum: ["admitted", "already", "invalid", "undone", "conflict", "refunded", "other-event", "stale"],
    }).notNull(),
    offline: boolean("offline").notNull().default(false),
    /** An offline sync's device clock minus the server's when it synced: its scan times are corrected by it. */
    deviceClockSkewMs: bigint("device_clock_skew_ms", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("check_ins_ticket_idx").on(t.ticketId),
    uniqueIndex("check_ins_client_scan_idx").on(t.deviceId, t.clientScanId),
  ],
);
