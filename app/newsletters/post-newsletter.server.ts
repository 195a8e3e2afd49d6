import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import { recordAudit } from "~/admin/audit.server";
import type { Database } from "~/db/client.server";
import { blogPosts, membershipTiers, newsletterRecipients, newsletters, type NewsletterSegment } from "~/db/schema";
import { startNewsletterIn } from "./newsletter-sender.server";
import { countSegment } from "./segments.server";

type Post = typeof blogPosts.$inferSelect;

/**
 * A post as a newsletter: its whole text (a members' post is theirs, so the email carries it), its
 * cover photo, and a link to read it on the blog.
 */
export function postNewsletterContent(
  post: Pick<Post, "id" | "title" | "content" | "slug" | "image" | "imageAlt">,
  siteUrl: string,
) {
  return {
    title: post.title,
    body: `${post.content}\n\n[Read it on the blog](${siteUrl}/blog/${post.slug})`,
    photos: post.image?.startsWith("/media/") ? [{ src: post.image, alt: post.imageAlt ?? post.title }] : [],
    postId: post.id,
  };
}

/**
 * Who a post is for as a segment: the members of its plans (every plan for a members' post), or for
 * a public post the subscribers who consented. Null when no plan exists to write to.
 */
async function postSegment(
  db: Pick<Database, "select">,
  post: Pick<Post, "audience" | "audienceTiers">,
): Promise<NewsletterSegment | null> {
  if (post.audience === "public") return { kind: "subscribers" };
  const tiers =
    post.audience === "tiers"
      ? post.audienceTiers
      : (
          await db.select({ slug: membershipTiers.slug }).from(membershipTiers).orderBy(asc(membershipTiers.sortOrder))
        ).map((t) => t.slug);
  return tiers.length ? { kind: "tiers", tiers } : null;
}

/** How many the post's email would reach now, for the owner's checkbox and button. */
export async function postReach(db: Database, post: Pick<Post, "audience" | "audienceTiers">): Promise<number> {
  const segment = await postSegment(db, post);
  return segment ? countSegment(db, segment) : 0;
}

/** The newsletter that already carried this post to its readers, if one went (or is going). */
export async function postEmailed(db: Database, postId: number) {
  const [row] = await db
    .select({ id: newsletters.id, startedAt: newsletters.startedAt })
    .from(newsletters)
    .where(and(eq(newsletters.postId, postId), ne(newsletters.status, "draft"), ne(newsletters.status, "scheduled")))
    .orderBy(desc(newsletters.id))
    .limit(1);
  return row ?? null;
}

export type EmailPostOutcome =
  { ok: true; newsletterId: number; reach: number } | { ok: false; message: string; newsletterId?: number };

/**
 * Emails a published post to its readers through the newsletter sender: one newsletter, created and
 * started (its recipients listed) in the transaction that holds the post's row, so two clicks or two
 * instances make one newsletter and each reader is queued once however the sending is interrupted.
 */
export async function emailPostToReaders(
  db: Database,
  siteUrl: string,
  postId: number,
  now: Date,
): Promise<EmailPostOutcome> {
  const outcome = await db.transaction(async (tx): Promise<EmailPostOutcome> => {
    const [post] = await tx.select().from(blogPosts).where(eq(blogPosts.id, postId)).for("update");
    if (!post) return { ok: false, message: "This post no longer exists." };
    if (!post.published) return { ok: false, message: "Publish the post first: only a published post is emailed." };
    const [sent] = await tx
      .select({ id: newsletters.id })
      .from(newsletters)
      .where(and(eq(newsletters.postId, postId), ne(newsletters.status, "draft"), ne(newsletters.status, "scheduled")))
      .limit(1);
    if (sent)
      return { ok: false, message: "This post has been emailed to its readers already.", newsletterId: sent.id };
    const segment = await postSegment(tx, post);
    if (!segment) return { ok: false, message: "There is no plan whose members could receive it." };
    const [letter] = await tx
      .insert(newsletters)
      .values({ ...postNewsletterContent(post, siteUrl), segment, createdAt: now, updatedAt: now })
      .returning({ id: newsletters.id });
    await startNewsletterIn(tx, letter!.id, now);
    await recordAudit(
      tx,
      {
        action: "newsletter.send",
        entity: "newsletter",
        entityId: letter!.id,
        summary: `Started emailing post "${post.title}" to its readers`,
      },
      now,
    );
    return { ok: true, newsletterId: letter!.id, reach: 0 };
  });
  if (!outcome.ok) return outcome;
  return { ...outcome, reach: await countRecipients(db, outcome.newsletterId) };
}

async function countRecipients(db: Database, newsletterId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(newsletterRecipients)
    .where(eq(newsletterRecipients.newsletterId, newsletterId));
  return Number(row?.n ?? 0);
}
