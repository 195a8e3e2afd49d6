import { createHmac, timingSafeEqual } from "node:crypto";
import type { AppConfig } from "~/config.server";
import type { Database } from "~/db/client.server";
import { findMember, type MemberRow } from "./member-row.server";

export interface MemberLinkSettings {
  siteUrl: string;
  /** SESSION_SECRET: signs the links, so only the shop can make one. */
  secret: string;
}

export type MemberLinkPurpose = "renew" | "cancel";

export const memberLinkSettings = (config: Pick<AppConfig, "siteUrl" | "sessionSecret">): MemberLinkSettings => ({
  siteUrl: config.siteUrl,
  secret: config.sessionSecret,
});

/**
 * The signature covers the member, the purpose and the paid-until day, so a link from a reminder works
 * until the member renews (and a renewed member's old "Renew" link cannot start a second payment by
 * mistake) without the site storing a token per email.
 */
function signature(secret: string, memberId: number, paidUntil: string, purpose: MemberLinkPurpose): string {
  return createHmac("sha256", secret)
    .update(`member-link:${purpose}:${memberId}:${paidUntil}`)
    .digest("base64url")
    .slice(0, 32);
}

/** The absolute URL of a member's "Renew" or "Cancel membership" link, as emails carry it. */
export function memberLink(
  settings: MemberLinkSettings,
  member: Pick<MemberRow, "id" | "paidUntil">,
  purpose: MemberLinkPurpose,
): string {
  const token = `${member.id}.${signature(settings.secret, member.id, member.paidUntil, purpose)}`;
  return `${settings.siteUrl}/account/${purpose}?token=${token}`;
}

/** The member a link's token names, if its signature is good for their current paid-until day. */
export async function memberFromLinkToken(
  db: Database,
  secret: string,
  token: string | null | undefined,
  purpose: MemberLinkPurpose,
): Promise<MemberRow | undefined> {
  const match = /^([1-9][0-9]{0,9})\.([A-Za-z0-9_-]{32})$/.exec(token ?? "");
  if (!match) return undefined;
  const member = await findMember(db, Number(match[1]));
  if (!member) return undefined;
  const expected = Buffer.from(signature(secret, member.id, member.paidUntil, purpose));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? member : undefined;
}
