import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { cookieAttributes, liveCreationWindow, readCookie } from "~/auth/cookies.server";
import { hitRateLimit, type FixedWindow } from "~/contact/rate-limit.server";
import type { AppContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import { dataAccessLinks, dataAccessSessions } from "~/db/schema";
import { renderEmail } from "~/email/layout.server";
import { queueEmail } from "~/email/outbox.server";
import { shopContact } from "~/email/shop-contact.server";
import { requestClientKey } from "~/lib/client-address.server";
import { findMember } from "~/memberships/member-row.server";
import { signedInMemberId } from "~/memberships/member-session.server";
import { dataSubject, holdsAnything } from "./personal-records.server";

/**
 * "Your data" for anyone the shop has records of, member or not: a one-time link emailed to the
 * address opens a session of an hour in that browser (decision 119). A member signed in to /account
 * sees their own address's data without a link.
 */
export const DATA_LINK_MINUTES = 30;
const SESSION_MS = 60 * 60_000;

/** As many requests as the membership's sign-in form allows, per client and per address. */
export const DATA_LINK_RATE_LIMITS = {
  address: { bucket: "data-link", limit: 5, windowMs: 15 * 60_000 },
  email: { bucket: "data-link-email", limit: 3, windowMs: 15 * 60_000 },
} as const satisfies Record<string, FixedWindow>;

const hash = (token: string) => createHash("sha256").update(token).digest("hex");
const isPlausibleToken = (token: string) => /^[A-Za-z0-9_-]{20,100}$/.test(token);

type LinkContext = Pick<AppContext, "db" | "config" | "clock" | "clientIp">;

export function dataCookieName(context: Pick<AppContext, "config">): string {
  return context.config.isProduction ? "__Host-data_session" : "data_session";
}

/**
 * Emails a link to the address's data page when the shop holds anything under it. Every address gets
 * the same answer, known or not, and the limits count both alike, so the form tells nobody whether
 * the shop knows an address; a stranger's address gets no email.
 */
export async function requestDataLink(context: LinkContext, email: string): Promise<"sent" | "limited"> {
  const now = context.clock.now();
  const address = email.trim().toLowerCase();
  if (!(await hitRateLimit(context.db, DATA_LINK_RATE_LIMITS.address, requestClientKey(context), now)))
    return "limited";
  // The counter's key is a hash: the rate-limit table never holds anyone's address.
  if (!(await hitRateLimit(context.db, DATA_LINK_RATE_LIMITS.email, `email:${hash(address)}`, now))) return "limited";

  if (!(await holdsAnything(context.db, await dataSubject(context.db, address)))) return "sent";

  const token = randomBytes(32).toString("base64url");
  const tokenHash = hash(token);
  const link = `${context.config.siteUrl}/your-data/open?${new URLSearchParams({ token })}`;
  await context.db.transaction(async (tx) => {
    await tx.insert(dataAccessLinks).values({
      tokenHash,
      email: address,
      createdAt: now,
      expiresAt: new Date(now.getTime() + DATA_LINK_MINUTES * 60_000),
    });
    await tx.delete(dataAccessLinks).where(lt(dataAccessLinks.expiresAt, new Date(now.getTime() - 24 * 3600_000)));
    const { html, text } = renderEmail({
      preheader: `Your link works once, for ${DATA_LINK_MINUTES} minutes`,
      heading: "Your data at Honey Bee",
      blocks: [
        {
          kind: "paragraph",
          text: "Here is the link you asked for to see, download or delete what we hold about you.",
        },
        { kind: "button", href: link, label: "See my data" },
        {
          kind: "paragraph",
          text:
            `The link works once, for ${DATA_LINK_MINUTES} minutes. If you did not ask for it, you can ignore this ` +
            "email: nobody can see your data without it.",
        },
      ],
      contact: await shopContact(tx),
    });
    await queueEmail(tx, {
      to: address,
      subject: "Your Honey Bee data link",
      text,
      html,
      dedupeKey: `data-link:${tokenHash}`,
      bodyExpiresOnSend: true,
    });
  });
  return "sent";
}

export type DataLinkState = "valid" | "used" | "expired" | "unknown";

/** What a link's token is now, without using it: a mail scanner's GET must not use up the link. */
export async function dataLinkState(db: Database, token: string, now: Date): Promise<DataLinkState> {
  if (!isPlausibleToken(token)) return "unknown";
  const [row] = await db
    .select({ usedAt: dataAccessLinks.usedAt, expiresAt: dataAccessLinks.expiresAt })
    .from(dataAccessLinks)
    .where(eq(dataAccessLinks.tokenHash, hash(token)))
    .limit(1);
  if (!row) return "unknown";
  if (row.usedAt) return "used";
  return row.expiresAt <= now ? "expired" : "valid";
}

export const DATA_LINK_PROBLEMS: Record<Exclude<DataLinkState, "valid">, string> = {
  used: "This link has already been used. Each link works once: ask for a new one below.",
  expired: `This link has expired: links work for ${DATA_LINK_MINUTES} minutes. Ask for a new one below.`,
  unknown: "This link is not valid. Check that you opened the whole link, or ask for a new one below.",
};

/**
 * Uses the link once (one conditional UPDATE, so two tabs or instances cannot both) and opens a
 * session for its address in the same transaction. Returns the Set-Cookie header, or why not.
 */
export async function openDataLink(
  context: Pick<AppContext, "db" | "config" | "clock">,
  token: string,
): Promise<{ ok: true; cookie: string } | { ok: false; state: Exclude<DataLinkState, "valid"> }> {
  const now = context.clock.now();
  if (!isPlausibleToken(token)) return { ok: false, state: "unknown" };
  const cookie = await context.db.transaction(async (tx) => {
    const [used] = await tx
      .update(dataAccessLinks)
      .set({ usedAt: now })
      .where(
        and(
          eq(dataAccessLinks.tokenHash, hash(token)),
          isNull(dataAccessLinks.usedAt),
          gt(dataAccessLinks.expiresAt, now),
        ),
      )
      .returning({ email: dataAccessLinks.email });
    if (!used) return undefined;
    const session = randomBytes(32).toString("base64url");
    await tx.insert(dataAccessSessions).values({
      idHash: hash(session),
      email: used.email,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SESSION_MS),
    });
    await tx.delete(dataAccessSessions).where(lt(dataAccessSessions.expiresAt, now));
    return `${dataCookieName(context)}=${session}; ${cookieAttributes(context, SESSION_MS / 1000)}`;
  });
  if (cookie) return { ok: true, cookie };
  const state = await dataLinkState(context.db, token, now);
  return { ok: false, state: state === "valid" ? "unknown" : state };
}

/**
 * The address whose data this request may see: a live data session's, or the signed-in member's.
 * Undefined for anyone else.
 */
export async function dataSubjectEmail(
  request: Request,
  context: Pick<AppContext, "db" | "config" | "clock">,
): Promise<string | undefined> {
  const token = readCookie(request, dataCookieName(context));
  if (token && isPlausibleToken(token)) {
    const now = context.clock.now();
    const { oldest, latest } = liveCreationWindow(now, SESSION_MS);
    const [row] = await context.db
      .select({ email: dataAccessSessions.email })
      .from(dataAccessSessions)
      .where(
        and(
          eq(dataAccessSessions.idHash, hash(token)),
          gt(dataAccessSessions.expiresAt, now),
          gt(dataAccessSessions.createdAt, oldest),
          lt(dataAccessSessions.createdAt, latest),
        ),
      )
      .limit(1);
    if (row) return row.email;
  }
  const memberId = await signedInMemberId(request, context);
  const member = memberId === undefined ? undefined : await findMember(context.db, memberId);
  return member?.email;
}

/** Ends this browser's data session (the member's own sign-in is /account's to end). */
export async function endDataSession(request: Request, context: Pick<AppContext, "db" | "config">): Promise<string> {
  const token = readCookie(request, dataCookieName(context));
  if (token) await context.db.delete(dataAccessSessions).where(eq(dataAccessSessions.idHash, hash(token)));
  return `${dataCookieName(context)}=; ${cookieAttributes(context, 0)}`;
}
