/** Members, their sign-in links and sessions (the months they were given are member-periods.ts). */
import { sql } from "drizzle-orm";
import { date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { membershipTiers } from "./catalog";

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
