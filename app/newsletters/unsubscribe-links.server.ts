import { timingSafeEqual } from "node:crypto";
import { keyedHash } from "~/lib/keyed-hash.server";

/**
 * Whose refusal a link records: `r` a newsletter's recipient row (so the newsletter counts it), `s` a
 * subscriber (the welcome email). The signature lets only the shop make one; no address is in the URL.
 */
export type UnsubscribeTarget = { kind: "r" | "s"; id: number };

const signature = (secret: string, target: UnsubscribeTarget) =>
  keyedHash(secret, "unsubscribe", `${target.kind}${target.id}`);

export function unsubscribeToken(secret: string, target: UnsubscribeTarget): string {
  return `${target.kind}${target.id}.${signature(secret, target)}`;
}

/** The page a newsletter's List-Unsubscribe header and its visible link point to (RFC 8058). */
export function unsubscribeUrl(siteUrl: string, secret: string, target: UnsubscribeTarget): string {
  return `${siteUrl}/newsletter/unsubscribe/${unsubscribeToken(secret, target)}`;
}

export function readUnsubscribeToken(secret: string, token: string | undefined): UnsubscribeTarget | null {
  const match = /^([rs])([1-9][0-9]{0,9})\.([0-9a-f]{32})$/.exec(token ?? "");
  if (!match) return null;
  const target = { kind: match[1] as "r" | "s", id: Number(match[2]) };
  const expected = Buffer.from(signature(secret, target));
  const given = Buffer.from(match[3]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? target : null;
}
