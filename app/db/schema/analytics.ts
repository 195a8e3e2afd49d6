/** Visitors' events and their daily roll-ups for the dashboard. */
import { bigserial, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

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
