import { count, desc, eq, inArray, like, or } from "drizzle-orm";
import { changedFields, recordAudit } from "~/admin/audit.server";
import { saDay } from "~/analytics/days";
import type { Database, Tx } from "~/db/client.server";
import { isRowId } from "~/db/row-id";
import { blogPosts, membershipTiers } from "~/db/schema";
import { postRowValues, type PostAdminInput } from "./post-admin-schema";
import { slugify } from "./post-schema";

export const POSTS_PAGE_SIZE = 25;

/** Every post, drafts included, newest first, for /admin/blog. */
export async function listPostsForAdmin(db: Database, requestedPage: number) {
  const [{ total }] = await db.select({ total: count() }).from(blogPosts);
  const pages = Math.max(1, Math.ceil(total / POSTS_PAGE_SIZE));
  const page = Math.min(Math.max(1, requestedPage), pages);
  const rows = await db
    .select({
      id: blogPosts.id,
      slug: blogPosts.slug,
      title: blogPosts.title,
      published: blogPosts.published,
      publishedOn: blogPosts.publishedOn,
      views: blogPosts.views,
      audience: blogPosts.audience,
    })
    .from(blogPosts)
    .orderBy(desc(blogPosts.publishedOn), desc(blogPosts.id))
    .limit(POSTS_PAGE_SIZE)
    .offset((page - 1) * POSTS_PAGE_SIZE);
  return { total, page, pages, posts: rows };
}

/** The ticked plans that are not tiers of the shop (a form from an old page, or a made-up one). */
export async function unknownTierSlugs(db: Database, slugs: readonly string[]): Promise<string[]> {
  if (!slugs.length) return [];
  const known = await db
    .select({ slug: membershipTiers.slug })
    .from(membershipTiers)
    .where(inArray(membershipTiers.slug, [...slugs]));
  return slugs.filter((s) => !known.some((k) => k.slug === s));
}

export async function findPostForAdmin(db: Database, id: number) {
  if (!isRowId(id)) return null;
  const [row] = await db.select().from(blogPosts).where(eq(blogPosts.id, id)).limit(1);
  return row ?? null;
}

const AUDITED = [
  "title",
  "excerpt",
  "author",
  "category",
  "content",
  "image",
  "imageAlt",
  "published",
  "publishedOn",
  "audience",
  "audienceTiers",
] as const;
const auditView = (row: Record<string, unknown>) => Object.fromEntries(AUDITED.map((k) => [k, row[k]]));

/** A slug made from the title, unique among all posts (drafts too) by a numeric suffix. */
async function freeSlug(tx: Tx, title: string): Promise<string> {
  const base = slugify(title);
  const taken = await tx
    .select({ slug: blogPosts.slug })
    .from(blogPosts)
    .where(or(eq(blogPosts.slug, base), like(blogPosts.slug, `${base}-%`)));
  const used = new Set(taken.map((t) => t.slug));
  let slug = base;
  for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}

/**
 * Creates a post (a draft, or published at once) or updates one. A post keeps its slug when its
 * title changes, so links already shared keep working. null when the post no longer exists.
 */
export async function savePost(
  db: Database,
  args: { id: number | null; input: PostAdminInput; publish: boolean; now: Date },
): Promise<{ id: number; slug: string; created: boolean; published: boolean } | null> {
  const values = postRowValues(args.input);
  return db.transaction(async (tx) => {
    if (args.id === null) {
      const slug = await freeSlug(tx, values.title);
      const [row] = await tx
        .insert(blogPosts)
        .values({
          ...values,
          slug,
          published: args.publish,
          publishedOn: saDay(args.now),
          views: 0,
          likes: 0,
          createdAt: args.now,
          updatedAt: args.now,
        })
        .returning();
      await recordAudit(
        tx,
        {
          action: "post.create",
          entity: "post",
          entityId: row.id,
          summary: `${row.published ? "Published" : "Drafted"} ${row.title}`,
          after: auditView(row),
        },
        args.now,
      );
      return { id: row.id, slug: row.slug, created: true, published: row.published };
    }
    const [before] = await tx.select().from(blogPosts).where(eq(blogPosts.id, args.id)).for("update");
    if (!before) return null;
    const diff = changedFields(auditView(before), values);
    if (diff.fields.length) {
      await tx
        .update(blogPosts)
        .set({ ...values, updatedAt: args.now })
        .where(eq(blogPosts.id, args.id));
      await recordAudit(
        tx,
        {
          action: "post.update",
          entity: "post",
          entityId: before.id,
          summary: `Changed ${diff.fields.join(", ")} of ${values.title}`,
          before: diff.before,
          after: diff.after,
        },
        args.now,
      );
    }
    return { id: before.id, slug: before.slug, created: false, published: before.published };
  });
}

/**
 * Publishes or unpublishes a post. Publishing dates it today (the day it went public, which is the
 * date /blog shows); unpublishing takes it off /blog, the home page, the sitemap and its own address.
 */
export async function setPostPublished(
  db: Database,
  id: number,
  published: boolean,
  now: Date,
): Promise<{ title: string } | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(blogPosts).where(eq(blogPosts.id, id)).for("update");
    if (!before) return null;
    if (before.published === published) return { title: before.title };
    const change = published ? { published, publishedOn: saDay(now) } : { published };
    await tx
      .update(blogPosts)
      .set({ ...change, updatedAt: now })
      .where(eq(blogPosts.id, id));
    const diff = changedFields(auditView(before), change);
    await recordAudit(
      tx,
      {
        action: published ? "post.publish" : "post.unpublish",
        entity: "post",
        entityId: id,
        summary: `${published ? "Published" : "Unpublished"} ${before.title}`,
        before: diff.before,
        after: diff.after,
      },
      now,
    );
    return { title: before.title };
  });
}

/** Deletes a post with its views and likes (they cascade). */
export async function removePost(db: Database, id: number, now: Date): Promise<{ title: string } | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(blogPosts).where(eq(blogPosts.id, id)).for("update");
    if (!row) return null;
    await tx.delete(blogPosts).where(eq(blogPosts.id, id));
    await recordAudit(
      tx,
      { action: "post.delete", entity: "post", entityId: id, summary: `Deleted ${row.title}`, before: auditView(row) },
      now,
    );
    return { title: row.title };
  });
}
