import { createHash, createHmac } from "node:crypto";
import { and, count, eq, gt, like, lt, lte, min } from "drizzle-orm";
import type { AppContext } from "~/context.server";
import { loginAttempts } from "~/db/schema";
import { requestClientKey, type ClientKey } from "~/lib/client-address.server";
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
 * and its address alone (the ceiling). See docs/decisions/051-login-rate-limit-keys.md. The address
 * is stored only as an HMAC keyed with the session secret (the same on every instance), so the
 * table never holds a visitor's IP address (docs/decisions/055-login-attempts-recorded-before-checking.md).
 */
export function loginClientKeys(client: ClientKey, userAgent: string | null, secret: string) {
  const address = createHmac("sha256", secret).update(client).digest("hex").slice(0, 32);
  const agent = createHash("sha256")
    .update(userAgent ?? "")
    .digest("hex")
    .slice(0, 16);
  return { client: `ip:${address}|ua:${agent}`, address: `ip:${address}` };
}

export type LoginResult = { status: "success" } | { status: "invalid" } | { status: "locked"; retryAt: Date };

type LoginContext = Pick<AppContext, "db" | "clock" | "clientIp"> & {
  config: Pick<AppContext["config"], "sessionSecret">;
};

/**
 * Failures in the window for one key; with `upToId`, only rows inserted up to that one (the rows
 * that were there before this attempt, and this attempt itself).
 */
async function failuresSince(context: LoginContext, key: string, since: Date, prefix: boolean, upToId?: number) {
  // Keys hold only [0-9a-f:|], so the prefix needs no LIKE escaping.
  const keyCondition = prefix ? like(loginAttempts.clientKey, `${key}|%`) : eq(loginAttempts.clientKey, key);
  const [row] = await context.db
    .select({ failures: count(), oldest: min(loginAttempts.attemptedAt) })
    .from(loginAttempts)
    .where(
      and(
        keyCondition,
        eq(loginAttempts.succeeded, false),
        gt(loginAttempts.attemptedAt, since),
        upToId === undefined ? undefined : lte(loginAttempts.id, upToId),
      ),
    );
  return { failures: Number(row?.failures ?? 0), oldest: row?.oldest ?? null };
}

/**
 * When the client may try again, or null when it is not locked out. With `ownAttemptId` the
 * client's own just-recorded attempt counts as one of the allowed ones (limits are "more than").
 */
async function lockedUntilAt(
  context: LoginContext,
  userAgent: string | null,
  ownAttemptId?: number,
): Promise<Date | null> {
  const now = context.clock.now();
  const windowMs = LOGIN_WINDOW_MINUTES * 60_000;
  const since = new Date(now.getTime() - windowMs);
  const keys = loginClientKeys(requestClientKey(context), userAgent, context.config.sessionSecret);
  const slack = ownAttemptId === undefined ? 0 : 1;
  const client = await failuresSince(context, keys.client, since, false, ownAttemptId);
  if (client.failures >= LOGIN_MAX_FAILURES + slack && client.oldest)
    return new Date(client.oldest.getTime() + windowMs);
  const address = await failuresSince(context, keys.address, since, true, ownAttemptId);
  if (address.failures >= LOGIN_MAX_FAILURES_PER_IP + slack && address.oldest) {
    return new Date(address.oldest.getTime() + windowMs);
  }
  return null;
}

/** When the client may try again, or null when it is not locked out. */
export function lockedUntil(context: LoginContext, userAgent: string | null): Promise<Date | null> {
  return lockedUntilAt(context, userAgent);
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

/**
 * The attempt is recorded as a failure before the password is checked, and it goes ahead only if
 * it is within the limit counting the attempts recorded before it: so a burst of parallel guesses,
 * on one instance or many, gets no more checks than the limit allows (a check-then-record order
 * would let every request of the burst pass the check first).
 */
async function checkPassword(context: LoginContext, password: string, userAgent: string | null): Promise<LoginResult> {
  const retryAt = await lockedUntil(context, userAgent);
  if (retryAt) return { status: "locked", retryAt };
  const { client } = loginClientKeys(requestClientKey(context), userAgent, context.config.sessionSecret);
  const now = context.clock.now();
  const [attempt] = await context.db
    .insert(loginAttempts)
    .values({ clientKey: client, succeeded: false, attemptedAt: now })
    .returning({ id: loginAttempts.id });
  const raced = await lockedUntilAt(context, userAgent, attempt.id);
  if (raced) {
    // Refused without a check: this attempt does not count against the client.
    await context.db.delete(loginAttempts).where(eq(loginAttempts.id, attempt.id));
    return { status: "locked", retryAt: raced };
  }
  const stored = await readAdminPasswordHash(context.db);
  const ok = Boolean(stored && password && password.length <= 1024 && (await verifyPassword(password, stored)));
  if (ok) {
    // A successful sign-in forgives this client's earlier mistakes.
    await context.db.delete(loginAttempts).where(eq(loginAttempts.clientKey, client));
    await context.db.insert(loginAttempts).values({ clientKey: client, succeeded: true, attemptedAt: now });
    return { status: "success" };
  }
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
