import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, inArray, ne, sql } from "drizzle-orm";
import type { AppConfig } from "~/config.server";
import type { Database, Tx } from "~/db/client.server";
import { consentRecords, members, orders, subscribers } from "~/db/schema";
import { queueEmail } from "~/email/outbox.server";
import { shopContactFrom } from "~/email/shop-contact.server";
import { keyedHash } from "~/lib/keyed-hash.server";
import { currentSiteSettings } from "~/settings/site-settings.server";
import type { ConsentForm } from "./sign-up-schema";
import { confirmationEmail, welcomeEmail } from "./subscription-emails.server";
import { unsubscribeUrl } from "./unsubscribe-links.server";

export type NewsConfig = Pick<AppConfig, "siteUrl" | "sessionSecret"> & { mail: Pick<AppConfig["mail"], "ownerEmail"> };

/** What the person saw and where: stored with each consent and withdrawal. */
export interface ConsentSource {
  wording: string;
  form: ConsentForm;
  page: string;
}

export const CONFIRM_LINK_DAYS = 7;
export const CONFIRMED_BY = {
  link: "confirmation link in an email to the address",
  customer: "existing customer: a paid order or a membership under this address",
  account: "signed in to /account by a link emailed to the address",
  awaiting: "not yet: a confirmation link was emailed to the address",
  oneClick: "one-click unsubscribe (a POST to the List-Unsubscribe address)",
  unsubscribePage: "unsubscribe page, reached by the link in an email to the address",
  comeBack: "subscribe-again button on the unsubscribe page, reached by the link in an email to the address",
} as const;

/** The keyed hash of an address kept with its consents (the holds' construction, its own purpose). */
export const consentAddressHash = (secret: string, email: string) =>
  keyedHash(secret, "consent", email.trim().toLowerCase());

const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** Someone the shop may already write to under section 69: a paid order or a membership under the address. */
export async function isExistingCustomer(db: Pick<Database, "select">, email: string): Promise<boolean> {
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        sql`lower(${orders.customerEmail}) = ${email}`,
        inArray(orders.status, ["paid", "partially_refunded", "refunded"]),
      ),
    )
    .limit(1);
  if (order) return true;
  const [member] = await db.select({ id: members.id }).from(members).where(eq(members.email, email)).limit(1);
  return Boolean(member);
}

async function record(
  tx: Pick<Database, "insert">,
  secret: string,
  entry: { subscriberId: number; email: string; action: "asked" | "given" | "withdrawn"; confirmedBy: string },
  source: ConsentSource,
  now: Date,
  newsletterId: number | null = null,
) {
  await tx.insert(consentRecords).values({
    subscriberId: entry.subscriberId,
    action: entry.action,
    wording: source.wording,
    form: source.form,
    page: source.page,
    confirmedBy: entry.confirmedBy,
    addressHash: consentAddressHash(secret, entry.email),
    newsletterId,
    at: now,
  });
}

export type SubscriptionOutcome = "confirmation-sent" | "subscribed" | "already-subscribed";

/**
 * A sign-up (footer, blog, checkout): an existing customer is subscribed at once and told so; anyone
 * else is emailed a confirmation link and receives nothing until she follows it (double opt-in). An
 * address already subscribed is left as it is. Each step is kept as evidence.
 */
export async function requestSubscription(
  db: Database,
  config: NewsConfig,
  person: { email: string; name?: string | null },
  source: ConsentSource,
  now: Date,
): Promise<SubscriptionOutcome> {
  const email = person.email.trim().toLowerCase();
  const name = person.name?.trim() || null;
  const customer = await isExistingCustomer(db, email);
  const settings = await currentSiteSettings(db, config.mail.ownerEmail);
  const contact = shopContactFrom(settings);
  return db.transaction(async (tx) => {
    if (customer) {
      const id = await setStatus(tx, email, name, "subscribed", now);
      if (id === null) return "already-subscribed";
      await record(
        tx,
        config.sessionSecret,
        { subscriberId: id, email, action: "given", confirmedBy: CONFIRMED_BY.customer },
        source,
        now,
      );
      const link = unsubscribeUrl(config.siteUrl, config.sessionSecret, { kind: "s", id });
      await queueEmail(tx, { ...welcomeEmail(email, link, contact), dedupeKey: `news-welcome:${id}:${now.getTime()}` });
      return "subscribed";
    }
    const token = randomBytes(32).toString("base64url");
    const [row] = await tx
      .insert(subscribers)
      .values({
        email,
        name,
        status: "pending",
        confirmTokenHash: tokenHash(token),
        confirmExpiresAt: new Date(now.getTime() + CONFIRM_LINK_DAYS * 86_400_000),
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: subscribers.email,
        set: {
          name: sql`coalesce(excluded.name, ${subscribers.name})`,
          status: "pending",
          confirmTokenHash: sql`excluded.confirm_token_hash`,
          confirmExpiresAt: sql`excluded.confirm_expires_at`,
          updatedAt: now,
        },
        setWhere: ne(subscribers.status, "subscribed"),
      })
      .returning({ id: subscribers.id });
    if (!row) return "already-subscribed";
    await record(
      tx,
      config.sessionSecret,
      { subscriberId: row.id, email, action: "asked", confirmedBy: CONFIRMED_BY.awaiting },
      source,
      now,
    );
    const confirmUrl = `${config.siteUrl}/newsletter/confirm?token=${token}`;
    await queueEmail(tx, {
      ...confirmationEmail(email, source.form, confirmUrl, contact),
      dedupeKey: `news-confirm:${row.id}:${tokenHash(token).slice(0, 16)}`,
    });
    return "confirmation-sent";
  });
}

/** Sets an address's status, making its row if it has none; null when it already had that status. */
async function setStatus(
  tx: Pick<Database, "insert">,
  email: string,
  name: string | null,
  status: "subscribed" | "unsubscribed",
  now: Date,
): Promise<number | null> {
  const stamps = status === "subscribed" ? { subscribedAt: now, unsubscribedAt: null } : { unsubscribedAt: now };
  const [row] = await tx
    .insert(subscribers)
    .values({ email, name, status, ...stamps, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: subscribers.email,
      set: {
        status,
        name: sql`coalesce(${subscribers.name}, excluded.name)`,
        confirmTokenHash: null,
        confirmExpiresAt: null,
        ...stamps,
        updatedAt: now,
      },
      setWhere: ne(subscribers.status, status),
    })
    .returning({ id: subscribers.id });
  return row?.id ?? null;
}

/** The pending sign-up a confirmation link names, if the link is still good. */
export async function pendingConfirmation(db: Pick<Database, "select">, token: string, now: Date) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const [row] = await db
    .select({ id: subscribers.id, email: subscribers.email })
    .from(subscribers)
    .where(
      and(
        eq(subscribers.confirmTokenHash, tokenHash(token)),
        eq(subscribers.status, "pending"),
        gt(subscribers.confirmExpiresAt, now),
      ),
    )
    .limit(1);
  return row;
}

/**
 * The confirmation link followed (by a button press, so a mail scanner that opens links confirms
 * nothing): the consent is given with the wording, form and page of the sign-up it confirms.
 */
export async function confirmSubscription(db: Database, secret: string, token: string, now: Date): Promise<boolean> {
  const pending = await pendingConfirmation(db, token, now);
  if (!pending) return false;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(subscribers)
      .set({
        status: "subscribed",
        subscribedAt: now,
        unsubscribedAt: null,
        confirmTokenHash: null,
        confirmExpiresAt: null,
        updatedAt: now,
      })
      .where(
        and(
          eq(subscribers.id, pending.id),
          eq(subscribers.status, "pending"),
          eq(subscribers.confirmTokenHash, tokenHash(token)),
        ),
      )
      .returning({ id: subscribers.id, email: subscribers.email });
    if (!row) return false;
    const [asked] = await tx
      .select()
      .from(consentRecords)
      .where(and(eq(consentRecords.subscriberId, row.id), eq(consentRecords.action, "asked")))
      .orderBy(desc(consentRecords.at), desc(consentRecords.id))
      .limit(1);
    const source: ConsentSource = asked
      ? { wording: asked.wording, form: asked.form as ConsentForm, page: asked.page }
      : { wording: "", form: "footer", page: "/" };
    await record(
      tx,
      secret,
      { subscriberId: row.id, email: row.email, action: "given", confirmedBy: CONFIRMED_BY.link },
      source,
      now,
    );
    return true;
  });
}

/**
 * Consent given or withdrawn where the address is already proven (a signed-in member, the link in an
 * email to it): no confirmation email. Nothing is recorded when the status does not change.
 */
export async function setNewsConsent(
  db: Database,
  secret: string,
  person: { email: string; name?: string | null },
  wants: boolean,
  source: ConsentSource,
  confirmedBy: string,
  now: Date,
  newsletterId: number | null = null,
): Promise<boolean> {
  const email = person.email.trim().toLowerCase();
  return db.transaction(async (tx: Tx) => {
    const id = await setStatus(tx, email, person.name?.trim() || null, wants ? "subscribed" : "unsubscribed", now);
    if (id === null) return false;
    await record(
      tx,
      secret,
      { subscriberId: id, email, action: wants ? "given" : "withdrawn", confirmedBy },
      source,
      now,
      newsletterId,
    );
    return true;
  });
}

export type NewsStatus = "pending" | "subscribed" | "unsubscribed" | null;

/** An address's standing: subscribed, waiting for its confirmation, refused, or never asked. */
export async function newsStatus(db: Pick<Database, "select">, email: string): Promise<NewsStatus> {
  const [row] = await db
    .select({ status: subscribers.status })
    .from(subscribers)
    .where(eq(subscribers.email, email.trim().toLowerCase()))
    .limit(1);
  return row?.status ?? null;
}

/** Every consent record kept for a subscriber, oldest first (the evidence, for the owner). */
export async function consentHistory(db: Pick<Database, "select">, subscriberId: number) {
  return db
    .select()
    .from(consentRecords)
    .where(eq(consentRecords.subscriberId, subscriberId))
    .orderBy(consentRecords.at, consentRecords.id);
}
