import { and, asc, desc, eq, like, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { blogPosts } from "~/db/schema";
import { saDay } from "~/analytics/days";
import { type NewPost, type PostSort, slugify } from "./post-schema";

const ORDER = {
  date: [desc(blogPosts.publishedOn), desc(blogPosts.id)],
  views: [desc(blogPosts.views), desc(blogPosts.publishedOn), desc(blogPosts.id)],
  likes: [desc(blogPosts.likes), desc(blogPosts.publishedOn), desc(blogPosts.id)],
  title: [asc(sql`lower(${blogPosts.title})`), asc(blogPosts.id)],
} as const;

/** The published posts (/blog); a draft is nowhere on the public site. */
export function listPosts(db: Database, sort: PostSort) {
  return db
    .select()
    .from(blogPosts)
    .where(eq(blogPosts.published, true))
    .orderBy(...ORDER[sort]);
}

/** A published post by its slug: a draft's address answers 404. */
export async function findPost(db: Database, slug: string) {
  const [post] = await db
    .select()
    .from(blogPosts)
    .where(and(eq(blogPosts.slug, slug), eq(blogPosts.published, true)))
    .limit(1);
  return post;
}

/** Stores a post dated today (South African day) under a slug made unique by a numeric suffix. */
export async function publishPost(db: Database, post: NewPost, now: Date) {
  const base = slugify(post.title);
  for (let attempt = 0; attempt < 5; attempt++) {
    const taken = await db
      .select({ slug: blogPosts.slug })
      .from(blogPosts)
      .where(or(eq(blogPosts.slug, base), like(blogPosts.slug, `${base}-%`)));
    const used = new Set(taken.map((t) => t.slug));
    let slug = base;
    for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
    const [row] = await db
      .insert(blogPosts)
      .values({ ...post, slug, publishedOn: saDay(now), views: 0, likes: 0 })
      .onConflictDoNothing({ target: blogPosts.slug })
      .returning();
    // Another publish took the same slug in between: look again.
    if (row) return row;
  }
  throw new Error("Could not find a free slug for the post");
}

/**
 * Counts a view or like once per (post, analytics session), in one statement: the reaction row is
 * inserted if new, and only then the post's counter moves. Returns the post's counts afterwards.
 */
export async function reactToPost(db: Database, postId: number, sessionId: string, kind: "view" | "like") {
  const column = kind === "view" ? sql.raw("views") : sql.raw("likes");
  await db.execute(sql`
    with added as (
      insert into blog_post_reactions (post_id, session_id, kind) values (${postId}, ${sessionId}, ${kind})
      on conflict do nothing
      returning post_id
    )
    update blog_posts set ${column} = ${column} + 1 where id in (select post_id from added)`);
  const [post] = await db
    .select({ views: blogPosts.views, likes: blogPosts.likes })
    .from(blogPosts)
    .where(eq(blogPosts.id, postId));
  return post;
}

export async function hasLiked(db: Database, postId: number, sessionId: string): Promise<boolean> {
  const result = await db.execute(
    sql`select 1 from blog_post_reactions where post_id = ${postId} and session_id = ${sessionId} and kind = 'like'`,
  );
  return ((result as { rows?: unknown[] }).rows ?? []).length > 0;
}
