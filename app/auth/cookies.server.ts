import { data } from "react-router";
import type { AppContext } from "~/context.server";

/**
 * The cookie and request rules every session shares (the admin's, a member's, a buyer's browser):
 * reading a cookie, a session cookie's attributes, a live session's creation window, and the
 * same-origin check for anything that changes something.
 */

type CookieContext = Pick<AppContext, "config">;

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
