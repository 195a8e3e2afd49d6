import { createHash } from "node:crypto";
import { and, count, eq, gt, like, lt, min } from "drizzle-orm";
import type { AppContext } from "~/context.server";
import { loginAttempts } from "~/db/schema";
import { readAdminPasswordHash, verifyPassword } from "./password.server";

/** Failed sign-ins allowed per client in the window before it is locked out. */
export const LOGIN_MAX_FAILURES = 5;
/** A higher ceiling per address, so changing the user agent does not buy more guesses. */
export const LOGIN_MAX_FAILURES_PER_IP = 30;
export const LOGIN_WINDOW_MINUTES = 15;
/** The spec's login delay: every check takes at least this long, right or wrong. */
export const LOGIN_MIN_DURATION_MS = 500;

/**
 * The rate-limit keys for one client: its address plus a hash of its user agent (the strict limit)
 * and its address alone (the ceiling). See docs/decisions/051-login-rate-limit-keys.md.
 */
export function loginClientKeys(clientIp: string, userAgent: string | null) {
  const agent = createHash("sha256").update(userAgent ?? "").digest("hex").slice(0, 16);
  return { client: `ip:${clientIp}|ua:${agent}`, address: `ip:${clientIp}` };
}

export type LoginResult =
  | { status: "success" }
  | { status: "invalid" }
  | { status: "locked"; retryAt: Date };

type LoginContext = Pick<AppContext, "db" | "clock" | "clientIp">;

async function failuresSince(context: LoginContext, key: string, since: Date, prefix: boolean) {
  // Addresses hold only [0-9a-f.:], so the prefix needs no LIKE escaping.
  const keyCondition = prefix ? like(loginAttempts.clientKey, `${key}|%`) : eq(loginAttempts.clientKey, key);
  const [row] = await context.db
    .select({ failures: count(), oldest: min(loginAttempts.attemptedAt) })
    .from(loginAttempts)
    .where(and(keyCondition, eq(loginAttempts.succeeded, false), gt(loginAttempts.attemptedAt, since)));
  return { failures: Number(row?.failures ?? 0), oldest: row?.oldest ?? null };
}

/** When the client may try again, or null when it is not locked out. */
export async function lockedUntil(context: LoginContext, userAgent: string | null): Promise<Date | null> {
  const now = context.clock.now();
  const windowMs = LOGIN_WINDOW_MINUTES * 60_000;
  const since = new Date(now.getTime() - windowMs);
  const keys = loginClientKeys(context.clientIp, userAgent);
  const client = await failuresSince(context, keys.client, since, false);
  if (client.failures >= LOGIN_MAX_FAILURES && client.oldest) return new Date(client.oldest.getTime() + windowMs);
  const address = await failuresSince(context, keys.address, since, true);
  if (address.failures >= LOGIN_MAX_FAILURES_PER_IP && address.oldest) {
    return new Date(address.oldest.getTime() + windowMs);
  }
  return null;
}

/**
 * Checks a password for the admin sign-in: refuses without checking while the client is locked
 * out, records every attempt in the database (so the limit holds across instances), and takes at
 * least LOGIN_MIN_DURATION_MS whatever the outcome.
 */
export async function attemptAdminLogin(
  context: LoginContext,
  password: string,
  userAgent: string | null,
  options: { minDurationMs?: number } = {},
): Promise<LoginResult> {
  const started = Date.now();
  const result = await checkPassword(context, password, userAgent);
  const minimum = options.minDurationMs ?? LOGIN_MIN_DURATION_MS;
  // A loop, because timers may fire a millisecond early.
  for (let wait = minimum - (Date.now() - started); wait > 0; wait = minimum - (Date.now() - started)) {
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return result;
}

async function checkPassword(context: LoginContext, password: string, userAgent: string | null): Promise<LoginResult> {
  const retryAt = await lockedUntil(context, userAgent);
  if (retryAt) return { status: "locked", retryAt };
  const stored = await readAdminPasswordHash(context.db);
  const ok = Boolean(stored && password && password.length <= 1024 && (await verifyPassword(password, stored)));
  const { client } = loginClientKeys(context.clientIp, userAgent);
  const now = context.clock.now();
  if (ok) {
    // A successful sign-in forgives this client's earlier mistakes.
    await context.db.delete(loginAttempts).where(eq(loginAttempts.clientKey, client));
    await context.db.insert(loginAttempts).values({ clientKey: client, succeeded: true, attemptedAt: now });
    return { status: "success" };
  }
  await context.db.insert(loginAttempts).values({ clientKey: client, succeeded: false, attemptedAt: now });
  // Attempts older than a day count for nothing: sweeping them here keeps the table small.
  await context.db.delete(loginAttempts).where(lt(loginAttempts.attemptedAt, new Date(now.getTime() - 86_400_000)));
  const retryAfterThis = await lockedUntil(context, userAgent);
  return retryAfterThis ? { status: "locked", retryAt: retryAfterThis } : { status: "invalid" };
}

/** "Too many failed sign-ins. Please try again in 15 minutes (after 10:15)." in South African time. */
export function lockoutMessage(retryAt: Date, now: Date): string {
  const minutes = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 60_000));
  const time = new Intl.DateTimeFormat("en-ZA", {
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
    timeZone: "Africa/Johannesburg",
  }).format(retryAt);
  return `Please try again in ${minutes} minute${minutes === 1 ? "" : "s"} (after ${time}).`;
}
