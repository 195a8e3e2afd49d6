import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import type { FixedWindow } from "~/contact/rate-limit.server";
import { hitRateLimit } from "~/contact/rate-limit.server";
import type { AppContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import { memberLoginTokens } from "~/db/schema";
import { requestClientKey } from "~/lib/client-address.server";
import { safeReturnPath } from "~/lib/return-path";
import { renderEmail } from "~/email/layout.server";
import { queueEmail, type OutgoingEmail } from "~/email/outbox.server";
import { shopContact, type ShopContact } from "~/email/shop-contact.server";
import { createMemberSession, hashToken } from "./member-session.server";
import { findMemberByEmail } from "./member-row.server";

/** How long an emailed sign-in link works (decision 087). */
export const SIGN_IN_LINK_MINUTES = 15;

/**
 * Requests for a link, per client address and per email address, in 15-minute windows: enough for a
 * member who mistypes or loses a message, too few to flood someone's inbox or probe many addresses.
 */
export const SIGN_IN_RATE_LIMITS = {
  address: { bucket: "member-sign-in", limit: 5, windowMs: 15 * 60_000 },
  email: { bucket: "member-sign-in-email", limit: 3, windowMs: 15 * 60_000 },
} as const satisfies Record<string, FixedWindow>;

type LinkContext = Pick<AppContext, "db" | "config" | "clock" | "clientIp">;

export type SignInRequestResult = { status: "sent" } | { status: "limited" };

export function signInEmail(
  to: string,
  memberId: number,
  link: string,
  contact: ShopContact,
  dedupeKey: string,
): OutgoingEmail {
  const { html, text } = renderEmail({
    preheader: `Your sign-in link works once, for ${SIGN_IN_LINK_MINUTES} minutes`,
    heading: "Sign in to your membership",
    blocks: [
      { kind: "paragraph", text: "Here is the link you asked for to manage your Honey Bee membership." },
      { kind: "button", href: link, label: "Sign in" },
      {
        kind: "paragraph",
        text:
          `The link works once, for ${SIGN_IN_LINK_MINUTES} minutes. If you did not ask for it, you can ignore ` +
          `this email: nobody can sign in without it.`,
      },
    ],
    contact,
  });
  return { to, subject: "Your Honey Bee sign-in link", text, html, memberId, dedupeKey, bodyExpiresOnSend: true };
}

/**
 * Emails a one-time sign-in link when the address is a member's. An unknown address gets the same
 * answer and no email, so the form cannot be used to learn who is a member; the rate limits count
 * both alike for the same reason. With `returnTo` (a path on this site) the link brings her back there
 * after signing in, e.g. to the checkout she asked from.
 */
export async function requestSignInLink(
  context: LinkContext,
  email: string,
  returnTo?: string,
): Promise<SignInRequestResult> {
  const now = context.clock.now();
  const address = email.trim().toLowerCase();
  if (!(await hitRateLimit(context.db, SIGN_IN_RATE_LIMITS.address, requestClientKey(context), now)))
    return { status: "limited" };
  // The counter's key is a hash: the rate-limit table never holds anyone's email address.
  if (!(await hitRateLimit(context.db, SIGN_IN_RATE_LIMITS.email, `email:${hashToken(address)}`, now)))
    return { status: "limited" };

  const member = await findMemberByEmail(context.db, address);
  if (!member) return { status: "sent" };

  const token = randomBytes(32).toString("base64url");
  const tokenHash = hashToken(token);
  // Checked here too, so no caller can put another site's address in a link the shop sends.
  const next = safeReturnPath(returnTo);
  const link = `${context.config.siteUrl}/account/sign-in?${new URLSearchParams(next ? { token, next } : { token })}`;
  await context.db.transaction(async (tx) => {
    await tx.insert(memberLoginTokens).values({
      tokenHash,
      memberId: member.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SIGN_IN_LINK_MINUTES * 60_000),
    });
    // Links a day past their expiry are of no use to anyone: swept here instead of by a job.
    await tx.delete(memberLoginTokens).where(lt(memberLoginTokens.expiresAt, new Date(now.getTime() - 24 * 3600_000)));
    await queueEmail(
      tx,
      signInEmail(member.email, member.id, link, await shopContact(tx), `member-sign-in:${tokenHash}`),
    );
  });
  return { status: "sent" };
}

export type TokenState = "valid" | "used" | "expired" | "unknown";

/** What a link's token is now, without using it (the GET page shows this before the member presses Sign in). */
export async function signInTokenState(db: Database, token: string, now: Date): Promise<TokenState> {
  if (!isPlausibleToken(token)) return "unknown";
  const [row] = await db
    .select({ usedAt: memberLoginTokens.usedAt, expiresAt: memberLoginTokens.expiresAt })
    .from(memberLoginTokens)
    .where(eq(memberLoginTokens.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) return "unknown";
  if (row.usedAt) return "used";
  if (row.expiresAt <= now) return "expired";
  return "valid";
}

const isPlausibleToken = (token: string) => /^[A-Za-z0-9_-]{20,100}$/.test(token);

export type SignInResult = { ok: true; cookie: string } | { ok: false; state: Exclude<TokenState, "valid"> };

/**
 * Uses the link's token once: one conditional UPDATE marks it used only if it is unused and unexpired,
 * so two tabs (or two instances) pressing Sign in at once cannot both get a session. The session is
 * made in the same transaction.
 */
export async function signInWithToken(
  context: Pick<AppContext, "db" | "config" | "clock">,
  token: string,
): Promise<SignInResult> {
  const now = context.clock.now();
  if (!isPlausibleToken(token)) return { ok: false, state: "unknown" };
  const cookie = await context.db.transaction(async (tx) => {
    const [used] = await tx
      .update(memberLoginTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(memberLoginTokens.tokenHash, hashToken(token)),
          isNull(memberLoginTokens.usedAt),
          gt(memberLoginTokens.expiresAt, now),
        ),
      )
      .returning({ memberId: memberLoginTokens.memberId });
    return used ? createMemberSession(tx, context, used.memberId) : undefined;
  });
  if (cookie) return { ok: true, cookie };
  const state = await signInTokenState(context.db, token, now);
  return { ok: false, state: state === "valid" ? "unknown" : state };
}

export const TOKEN_PROBLEMS: Record<Exclude<TokenState, "valid">, string> = {
  used: "This sign-in link has already been used. Each link works once: ask for a new one below.",
  expired: `This sign-in link has expired: links work for ${SIGN_IN_LINK_MINUTES} minutes. Ask for a new one below.`,
  unknown: "This sign-in link is not valid. Check that you opened the whole link, or ask for a new one below.",
};
