import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt, lte } from "drizzle-orm";
import type { AppContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import { adminSessions } from "~/db/schema";
import { cookieAttributes, liveCreationWindow, readCookie } from "~/auth/cookies.server";

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
export async function destroyAdminSession(
  request: Request,
  context: Pick<AppContext, "db" | "config">,
): Promise<string> {
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
