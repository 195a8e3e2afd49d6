import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { newsletterRecipients, subscribers } from "~/db/schema";
import { NEWS_CONSENT_WORDING } from "./sign-up-schema";
import { CONFIRMED_BY, newsStatus, setNewsConsent } from "./subscriptions.server";
import { readUnsubscribeToken } from "./unsubscribe-links.server";

/** The address an unsubscribe link was made for, and the newsletter that carried it. */
export async function unsubscribeTarget(db: Pick<Database, "select">, secret: string, token: string | undefined) {
  const target = readUnsubscribeToken(secret, token);
  if (!target) return null;
  if (target.kind === "r") {
    const [row] = await db
      .select({ email: newsletterRecipients.email, newsletterId: newsletterRecipients.newsletterId })
      .from(newsletterRecipients)
      .where(eq(newsletterRecipients.id, target.id))
      .limit(1);
    return row ?? null;
  }
  const [row] = await db
    .select({ email: subscribers.email })
    .from(subscribers)
    .where(eq(subscribers.id, target.id))
    .limit(1);
  return row ? { email: row.email, newsletterId: null } : null;
}

/** What the unsubscribe page shows: whether the address still receives the news. */
export async function unsubscribePageState(db: Pick<Database, "select">, secret: string, token: string | undefined) {
  const target = await unsubscribeTarget(db, secret, token);
  if (!target) return { valid: false as const };
  return { valid: true as const, unsubscribed: (await newsStatus(db, target.email)) === "unsubscribed" };
}

/**
 * The link's address refuses the news (RFC 8058's one-click POST, or the page's button); no session is
 * needed, the signed link proves the email reached her. The withdrawal is kept like a consent, with the
 * newsletter it came from. A repeat records nothing.
 */
export async function unsubscribeByLink(
  db: Database,
  secret: string,
  token: string | undefined,
  how: "one-click" | "page",
  page: string,
  now: Date,
): Promise<boolean> {
  const target = await unsubscribeTarget(db, secret, token);
  if (!target) return false;
  await setNewsConsent(
    db,
    secret,
    { email: target.email },
    false,
    { wording: how === "one-click" ? "List-Unsubscribe=One-Click" : "Unsubscribe", form: "unsubscribe", page },
    how === "one-click" ? CONFIRMED_BY.oneClick : CONFIRMED_BY.unsubscribePage,
    now,
    target.newsletterId,
  );
  return true;
}

/** "Subscribe again" on the unsubscribe page: the link proves the address, so no confirmation email. */
export async function resubscribeByLink(
  db: Database,
  secret: string,
  token: string | undefined,
  page: string,
  now: Date,
): Promise<boolean> {
  const target = await unsubscribeTarget(db, secret, token);
  if (!target) return false;
  await setNewsConsent(
    db,
    secret,
    { email: target.email },
    true,
    { wording: NEWS_CONSENT_WORDING, form: "unsubscribe", page },
    CONFIRMED_BY.comeBack,
    now,
  );
  return true;
}
