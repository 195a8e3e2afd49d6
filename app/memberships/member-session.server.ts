import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt, lte } from "drizzle-orm";
import { redirect } from "react-router";
import { cookieAttributes, liveCreationWindow, readCookie } from "~/auth/cookies.server";
import type { AppContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import { memberSessions } from "~/db/schema";

/**
 * A member's sign-in to /account: the admin's cookie rules (HttpOnly, SameSite=Lax, Path=/, `__Host-`
 * and Secure in production), a cookie of its own name and a table of its own, so it can never open
 * the admin (which reads admin_sessions only). Decision 087.
 */
export const MEMBER_SESSION_DAYS = 30;
const SESSION_MS = MEMBER_SESSION_DAYS * 24 * 3600_000;

type CookieContext = Pick<AppContext, "config">;
type SessionContext = Pick<AppContext, "db" | "clock" | "config">;

export function memberCookieName(context: CookieContext): string {
  return context.config.isProduction ? "__Host-member_session" : "member_session";
}

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Stores a session for the member (only the token's hash) and returns the Set-Cookie header. */
export async function createMemberSession(
  db: Pick<Database, "insert" | "delete">,
  context: CookieContext & Pick<AppContext, "clock">,
  memberId: number,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = context.clock.now();
  await db
    .insert(memberSessions)
    .values({ idHash: hashToken(token), memberId, createdAt: now, expiresAt: new Date(now.getTime() + SESSION_MS) });
  // Expired rows are useless; sweeping them here keeps the table small without a separate job.
  await db.delete(memberSessions).where(lt(memberSessions.expiresAt, now));
  return `${memberCookieName(context)}=${token}; ${cookieAttributes(context, SESSION_MS / 1000)}`;
}

/** Ends the session named by the request's cookie and returns the Set-Cookie header that clears it. */
export async function destroyMemberSession(
  request: Request,
  context: Pick<AppContext, "db" | "config">,
): Promise<string> {
  const token = readCookie(request, memberCookieName(context));
  if (token) await context.db.delete(memberSessions).where(eq(memberSessions.idHash, hashToken(token)));
  return `${memberCookieName(context)}=; ${cookieAttributes(context, 0)}`;
}

/** The member whose live session the request carries, or undefined. */
export async function signedInMemberId(request: Request, context: SessionContext): Promise<number | undefined> {
  const token = readCookie(request, memberCookieName(context));
  if (!token || token.length < 20 || token.length > 100) return undefined;
  const now = context.clock.now();
  const { oldest: oldestCreation, latest: latestCreation } = liveCreationWindow(now, SESSION_MS);
  const [row] = await context.db
    .select({ memberId: memberSessions.memberId })
    .from(memberSessions)
    .where(
      and(
        eq(memberSessions.idHash, hashToken(token)),
        gt(memberSessions.expiresAt, now),
        gt(memberSessions.createdAt, oldestCreation),
        lte(memberSessions.createdAt, latestCreation),
      ),
    )
    .limit(1);
  return row?.memberId;
}

/** For the pages under /account that make no sense signed out: back to /account's sign-in form. */
export async function requireMemberId(request: Request, context: SessionContext): Promise<number> {
  const memberId = await signedInMemberId(request, context);
  if (memberId === undefined) throw redirect("/account");
  return memberId;
}
