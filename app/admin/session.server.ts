import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt, lte } from "drizzle-orm";
import { data, redirect } from "react-router";
import type { AppContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import { adminSessions } from "~/db/schema";

/**
 * How long a sign-in lasts. Checked against the row's creation as well as its stored expiry, so a
 * row with a far expiry (planted through a restored backup, say) still ends 12 hours after it began.
 */
export const ADMIN_SESSION_HOURS = 12;

type CookieContext = Pick<AppContext, "config">;

/** `__Host-` (Secure, Path=/, no Domain) in production; a plain name over http in development and tests. */
export function adminCookieName(context: CookieContext): string {
  return context.config.isProduction ? "__Host-admin_session" : "admin_session";
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export function readCookie(request: Request, name: string): string | undefined {
  return readCookieHeader(request.headers.get("cookie") ?? undefined, name);
}

/** One cookie's value from a raw Cookie header (also used before a Request exists: server/). */
export function readCookieHeader(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The attributes every session cookie has (the admin's and a member's): Secure where it can be. */
export function cookieAttributes(context: CookieContext, maxAgeSeconds: number): string {
  const secure = context.config.isProduction ? "; Secure" : "";
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

/**
 * The creation times a live session can have: not older than its lifetime (so a row with a far
 * expiry, planted through a restored backup say, still ends on time) and not in the future beyond
 * a few minutes that allow for instances' clocks to differ.
 */
export function liveCreationWindow(now: Date, lifetimeMs: number): { oldest: Date; latest: Date } {
  return { oldest: new Date(now.getTime() - lifetimeMs), latest: new Date(now.getTime() + 5 * 60_000) };
}

/** Creates a session row (only the token's hash is stored) and returns the Set-Cookie header. */
export async function createAdminSession(
  context: Pick<AppContext, "db" | "clock" | "config">,
  userAgent: string | null,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = context.clock.now();
  const expiresAt = new Date(now.getTime() + ADMIN_SESSION_HOURS * 3600_000);
  await context.db.insert(adminSessions).values({
    idHash: hashToken(token),
    createdAt: now,
    expiresAt,
    userAgent: userAgent?.slice(0, 300) ?? null,
  });
  // Expired rows are useless; sweeping them here keeps the table small without a separate job.
  await context.db.delete(adminSessions).where(lt(adminSessions.expiresAt, now));
  return `${adminCookieName(context)}=${token}; ${cookieAttributes(context, ADMIN_SESSION_HOURS * 3600)}`;
}

/** Ends the session named by the request's cookie and returns the Set-Cookie header that clears it. */
export async function destroyAdminSession(request: Request, context: Pick<AppContext, "db" | "config">): Promise<string> {
  const token = readCookie(request, adminCookieName(context));
  if (token) await context.db.delete(adminSessions).where(eq(adminSessions.idHash, hashToken(token)));
  return `${adminCookieName(context)}=; ${cookieAttributes(context, 0)}`;
}

/** A stored session that has neither expired nor outlived ADMIN_SESSION_HOURS since its creation. */
export async function sessionIsValid(db: Database, token: string, now: Date): Promise<boolean> {
  if (token.length < 20 || token.length > 100) return false;
  const { oldest: oldestCreation, latest: latestCreation } = liveCreationWindow(now, ADMIN_SESSION_HOURS * 3600_000);
  const [row] = await db
    .select({ idHash: adminSessions.idHash })
    .from(adminSessions)
    .where(
      and(
        eq(adminSessions.idHash, hashToken(token)),
        gt(adminSessions.expiresAt, now),
        gt(adminSessions.createdAt, oldestCreation),
        lte(adminSessions.createdAt, latestCreation),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** True when the request carries a live admin session. Never redirects (analytics, the blog page). */
export async function isAdminRequest(
  request: Request,
  context: Pick<AppContext, "db" | "clock" | "config">,
): Promise<boolean> {
  const token = readCookie(request, adminCookieName(context));
  if (!token) return false;
  return sessionIsValid(context.db, token, context.clock.now());
}

/**
 * A POST from another site is refused even if the browser sent the cookie. The Origin header is
 * compared with the request's own origin and the configured site URL; without Origin, the Fetch
 * Metadata header decides; a client that sends neither is not a browser acting for someone else.
 */
export function isSameOriginRequest(request: Request, context: Pick<AppContext, "config">): boolean {
  const origin = request.headers.get("origin");
  if (origin) {
    if (origin === "null") return false;
    const allowed = new Set([new URL(request.url).origin, new URL(context.config.siteUrl).origin]);
    const host = request.headers.get("host");
    try {
      if (host && new URL(origin).host === host) return true;
    } catch {
      return false;
    }
    return allowed.has(origin);
  }
  const site = request.headers.get("sec-fetch-site");
  return !site || site === "same-origin" || site === "none";
}

export function assertSameOrigin(request: Request, context: Pick<AppContext, "config">): void {
  if (!isSameOriginRequest(request, context)) {
    throw data({ error: "Cross-origin request refused" }, { status: 403 });
  }
}

export interface RequireAdminOptions {
  /** "page": redirect to the sign-in page (default); "api": 401 with no data. */
  mode?: "page" | "api";
}

/**
 * The gate for every admin loader, action and data endpoint: a live session, and for anything
 * but GET/HEAD a same-origin request.
 */
export async function requireAdmin(
  request: Request,
  context: Pick<AppContext, "db" | "clock" | "config">,
  options: RequireAdminOptions = {},
): Promise<void> {
  const method = request.method.toUpperCase();
  if (method !== "GET" && method !== "HEAD") assertSameOrigin(request, context);
  if (await isAdminRequest(request, context)) return;
  if (options.mode === "api") {
    throw data({ error: "Authentication required" }, { status: 401, headers: { "Cache-Control": "no-store" } });
  }
  throw redirect("/admin/login");
}

/**
 * One-time messages carried across a redirect (sign-in, sign-out), read and cleared by the next page.
 * Path=/ because client navigations fetch "/admin.data", which a Path=/admin cookie does not match.
 */
export const ADMIN_FLASH_COOKIE = "admin_flash";
export type AdminFlash = "login" | "logout";

export function setFlashCookie(flash: AdminFlash): string {
  return `${ADMIN_FLASH_COOKIE}=${flash}; Path=/; HttpOnly; SameSite=Lax; Max-Age=60`;
}

export function readFlash(request: Request): { flash?: AdminFlash; clear?: string } {
  const value = readCookie(request, ADMIN_FLASH_COOKIE);
  if (value !== "login" && value !== "logout") return {};
  return { flash: value, clear: `${ADMIN_FLASH_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0` };
}
