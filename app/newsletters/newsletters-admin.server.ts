import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { recordAudit } from "~/admin/audit.server";
import type { AppConfig } from "~/config.server";
import type { Database } from "~/db/client.server";
import {
  blogPosts,
  catalogItems,
  consentRecords,
  emailOutbox,
  events,
  membershipTiers,
  newsletterRecipients,
  newsletters,
  subscribers,
  type NewsletterSegment,
} from "~/db/schema";
import { renderMarkdown } from "~/blog/markdown.server";
import { parseSouthAfricanDateTime } from "~/events/event-schema";
import { queueEmail } from "~/email/outbox.server";
import { shopContactFrom } from "~/email/shop-contact.server";
import { unknownUploadedPhotos } from "~/media/photos.server";
import { currentSiteSettings, ownerNotificationEmail } from "~/settings/site-settings.server";
import { newsletterEmail } from "./newsletter-email.server";
import type { NewsletterInput } from "./newsletter-schema";
import { startNewsletter } from "./newsletter-sender.server";
import { countSegment, SEGMENT_RULES } from "./segments.server";
import { postNewsletterContent } from "./post-newsletter.server";
import { resolveShopCard } from "./shop-cards.server";

export type NewsletterRow = typeof newsletters.$inferSelect;

/** Sent, failed and unsubscribed: what the shop can count without watching anyone read. */
export async function newsletterCounts(db: Database, ids: number[]) {
  if (!ids.length) return new Map<number, { recipients: number; sent: number; failed: number; unsubscribed: number }>();
  const delivery = await db
    .select({
      id: newsletterRecipients.newsletterId,
      recipients: sql<number>`count(*)::int`,
      sent: sql<number>`count(*) filter (where ${emailOutbox.status} = 'sent')::int`,
      failed: sql<number>`count(*) filter (where ${emailOutbox.status} = 'failed')::int`,
    })
    .from(newsletterRecipients)
    .leftJoin(emailOutbox, eq(emailOutbox.id, newsletterRecipients.outboxId))
    .where(inArray(newsletterRecipients.newsletterId, ids))
    .groupBy(newsletterRecipients.newsletterId);
  const refusals = await db
    .select({ id: consentRecords.newsletterId, n: sql<number>`count(*)::int` })
    .from(consentRecords)
    .where(and(inArray(consentRecords.newsletterId, ids), eq(consentRecords.action, "withdrawn")))
    .groupBy(consentRecords.newsletterId);
  return new Map(
    ids.map((id) => {
      const d = delivery.find((row) => row.id === id);
      return [
        id,
        {
          recipients: d?.recipients ?? 0,
          sent: d?.sent ?? 0,
          failed: d?.failed ?? 0,
          unsubscribed: refusals.find((row) => row.id === id)?.n ?? 0,
        },
      ];
    }),
  );
}

export async function listNewsletters(db: Database) {
  const rows = await db
    .select()
    .from(newsletters)
    .orderBy(desc(newsletters.createdAt), desc(newsletters.id))
    .limit(200);
  const counts = await newsletterCounts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ ...row, segmentLabel: SEGMENT_RULES[row.segment.kind].label, ...counts.get(row.id)! }));
}

export async function findNewsletter(db: Database, id: number) {
  const [row] = await db.select().from(newsletters).where(eq(newsletters.id, id));
  return row;
}

/** The segment the form chose, each choice checked against what exists; a field message for what does not. */
async function segmentFromInput(
  db: Database,
  input: NewsletterInput,
): Promise<{ ok: true; segment: NewsletterSegment } | { ok: false; field: string; message: string }> {
  switch (input.segment) {
    case "subscribers":
      return { ok: true, segment: { kind: "subscribers" } };
    case "tiers": {
      const found = await db
        .select({ slug: membershipTiers.slug })
        .from(membershipTiers)
        .where(inArray(membershipTiers.slug, input.tiers));
      if (found.length !== new Set(input.tiers).size)
        return { ok: false, field: "tiers", message: "Choose tiers from the list." };
      return { ok: true, segment: { kind: "tiers", tiers: [...new Set(input.tiers)] } };
    }
    case "attendees": {
      const found = await db.select({ id: events.id }).from(events).where(inArray(events.id, input.events));
      if (found.length !== new Set(input.events).size)
        return { ok: false, field: "events", message: "Choose events from the list." };
      return { ok: true, segment: { kind: "attendees", events: [...new Set(input.events)] } };
    }
    case "buyers": {
      const ids = [...new Set(input.products.map(Number))];
      const found = await db
        .select({ id: catalogItems.id })
        .from(catalogItems)
        .where(and(inArray(catalogItems.id, ids), eq(catalogItems.kind, "product")));
      if (found.length !== ids.length)
        return { ok: false, field: "products", message: "Choose products from the list." };
      return { ok: true, segment: { kind: "buyers", products: ids } };
    }
  }
}

export type SaveOutcome =
  | { ok: true; id: number; toast: { title: string; description: string } }
  | { ok: false; fieldErrors: Record<string, string> };

/**
 * Saves the draft and does what was asked: only a draft (or a scheduled one) can change; a newsletter
 * that has started going is the record of what went. Each change writes an audit line.
 */
export async function saveNewsletter(
  db: Database,
  config: Pick<AppConfig, "siteUrl" | "mail">,
  id: number | null,
  input: NewsletterInput,
  now: Date,
): Promise<SaveOutcome> {
  const segment = await segmentFromInput(db, input);
  if (!segment.ok) return { ok: false, fieldErrors: { [segment.field]: segment.message } };
  const unknown = await unknownUploadedPhotos(
    db,
    input.photos.map((p) => p.src),
  );
  if (unknown.length)
    return {
      ok: false,
      fieldErrors: Object.fromEntries(
        unknown.map((i) => [`photos.${i}.src`, "This photo is not in the media library; upload it again."]),
      ),
    };
  const card = await resolveShopCard(db, input.card);
  if (card === undefined)
    return {
      ok: false,
      fieldErrors: { card: "Choose a product or event from the list: that one is not in the shop." },
    };
  let content = {
    title: input.title,
    body: input.body,
    photos: input.photos,
    card,
    postId: null as number | null,
  };
  if (input.postId) {
    const [post] = await db
      .select()
      .from(blogPosts)
      .where(and(eq(blogPosts.id, Number(input.postId)), eq(blogPosts.published, true)));
    if (!post) return { ok: false, fieldErrors: { postId: "Choose a published post from the list." } };
    content = { ...postNewsletterContent(post, config.siteUrl), card };
  }
  const sendAt = input.intent === "schedule" ? parseSouthAfricanDateTime(input.sendAt) : null;
  if (sendAt && sendAt.getTime() <= now.getTime())
    return { ok: false, fieldErrors: { sendAt: "Choose a time in the future, or press Send now." } };

  const saved = await db.transaction(async (tx) => {
    const values = {
      ...content,
      segment: segment.segment,
      status: sendAt ? ("scheduled" as const) : ("draft" as const),
      sendAt,
      updatedAt: now,
    };
    const [row] =
      id === null
        ? await tx
            .insert(newsletters)
            .values({ ...values, createdAt: now })
            .returning()
        : await tx
            .update(newsletters)
            .set(values)
            .where(and(eq(newsletters.id, id), inArray(newsletters.status, ["draft", "scheduled"])))
            .returning();
    if (!row) return null;
    await recordAudit(
      tx,
      {
        action: sendAt ? "newsletter.schedule" : "newsletter.save",
        entity: "newsletter",
        entityId: row.id,
        summary: `${sendAt ? "Scheduled" : "Saved"} newsletter "${row.title}" for ${SEGMENT_RULES[row.segment.kind].label.toLowerCase()}`,
      },
      now,
    );
    return row;
  });
  if (!saved)
    return { ok: false, fieldErrors: { form: "This newsletter has gone out already: it can no longer change." } };

  if (input.intent === "test") {
    const settings = await currentSiteSettings(db, config.mail.ownerEmail);
    const owner = await ownerNotificationEmail(db, config.mail.ownerEmail);
    const email = newsletterEmail(
      saved,
      { email: owner, basis: "consent", unsubscribeUrl: null },
      config.siteUrl,
      shopContactFrom(settings),
    );
    await queueEmail(db, {
      ...email,
      subject: `[Test] ${email.subject}`,
      dedupeKey: `newsletter-test:${saved.id}:${now.getTime()}`,
    });
    return { ok: true, id: saved.id, toast: { title: "Test sent", description: `A copy is on its way to ${owner}.` } };
  }
  if (input.intent === "send") {
    await startNewsletter(db, saved.id, now);
    await recordAudit(
      db,
      {
        action: "newsletter.send",
        entity: "newsletter",
        entityId: saved.id,
        summary: `Started sending newsletter "${saved.title}"`,
      },
      now,
    );
    const count = await countSegment(db, saved.segment);
    return {
      ok: true,
      id: saved.id,
      toast: { title: "Sending", description: `It goes to ${count} people, a few each second.` },
    };
  }
  return {
    ok: true,
    id: saved.id,
    toast: sendAt
      ? { title: "Scheduled", description: "It goes out at the time you chose." }
      : { title: "Draft saved", description: "Send a test to yourself, then send it." },
  };
}

/** The owner's preview: the message's text as the email shows it, at phone width. */
export function previewHtml(row: Pick<NewsletterRow, "body">): string {
  return renderMarkdown(row.body);
}

/** The published posts the owner may send, newest first. */
export async function publishedPosts(db: Database) {
  return db
    .select({ id: blogPosts.id, title: blogPosts.title })
    .from(blogPosts)
    .where(eq(blogPosts.published, true))
    .orderBy(desc(blogPosts.publishedOn))
    .limit(100);
}

/**
 * The newest subscribers with the evidence of their standing: the last consent or withdrawal kept for
 * each (wording, form and page, when, how confirmed).
 */
export async function listSubscribers(db: Database) {
  const rows = await db
    .select({
      id: subscribers.id,
      email: subscribers.email,
      name: subscribers.name,
      status: subscribers.status,
      action: consentRecords.action,
      wording: consentRecords.wording,
      form: consentRecords.form,
      page: consentRecords.page,
      confirmedBy: consentRecords.confirmedBy,
      at: consentRecords.at,
    })
    .from(subscribers)
    .leftJoin(
      consentRecords,
      eq(consentRecords.id, sql`(select max(c.id) from ${consentRecords} c where c.subscriber_id = ${subscribers.id})`),
    )
    .orderBy(desc(subscribers.updatedAt), desc(subscribers.id))
    .limit(100);
  const [counted] = await db
    .select({ n: sql<number>`count(*) filter (where ${subscribers.status} = 'subscribed')::int` })
    .from(subscribers);
  return { subscribed: counted?.n ?? 0, rows };
}
