import { createHash, randomBytes } from "node:crypto";
import { readCookie } from "~/auth/cookies.server";
import type { AppContext } from "~/context.server";
import { BAG_COUNT_COOKIE } from "./bag-limits";

/** The HttpOnly cookie that finds a bag: 32 random bytes, never derived from anything a visitor could guess. */
export const BAG_COOKIE = "hb_bag";

/** A bag not used for 30 days is forgotten (issue 39). */
export const BAG_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export const newBagToken = () => randomBytes(32).toString("base64url");

/** The bags.id of a cookie value: its hash, so the stored ids cannot be used as cookies. */
export const bagIdOf = (token: string) => createHash("sha256").update(`bag:${token}`).digest("hex");

/** The request's bag cookie, or null without a well-formed one. */
export function requestBagToken(request: Request): string | null {
  const token = readCookie(request, BAG_COOKIE);
  return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : null;
}

/** Both cookies after a change: the bag's (HttpOnly) and its count (read by the header's script). */
export function bagCookies(context: Pick<AppContext, "config">, token: string | null, count: number): string[] {
  const secure = context.config.isProduction ? "; Secure" : "";
  const maxAge = Math.floor(BAG_LIFETIME_MS / 1000);
  const count_ = `${BAG_COUNT_COOKIE}=${count}; Path=/; SameSite=Lax; Max-Age=${maxAge}${secure}`;
  if (!token) return [count_];
  return [`${BAG_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`, count_];
}
