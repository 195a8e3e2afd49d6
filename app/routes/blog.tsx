import { data } from "react-router";
import { textFields } from "~/lib/form";
import { assertSameOrigin } from "~/auth/cookies.server";
import { isAdminRequest } from "~/admin/session.server";
import { contentPreview, parsePostSort, POST_SORTS } from "~/blog/post-options";
import { newPostSchema } from "~/blog/post-schema";
import { listPosts, publishPost } from "~/blog/posts.server";
import { audienceTiersBySlug } from "~/blog/post-access.server";
import { lockLabel } from "~/blog/post-audience";
import { NewPostDialog } from "~/components/blog/NewPostDialog";
import { NewsSignUp } from "~/components/newsletters/NewsSignUp";
import { PostCard, type PostCardData } from "~/components/blog/PostCard";
import { SortForm } from "~/components/ui/SortForm";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/blog";

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const sort = parsePostSort(url.searchParams.get("sort"));
  const [isAdmin, rows] = await Promise.all([isAdminRequest(request, context), listPosts(context.db, sort)]);
  const tiersOf = await audienceTiersBySlug(context.db, rows);
  // A members-only post is listed for everyone by its excerpt; none of its text is on the list.
  const posts: PostCardData[] = rows.map((p) => ({
    slug: p.slug,
    title: p.title,
    excerpt: p.excerpt,
    lock: lockLabel(p.audience, tiersOf(p)),
    preview: p.audience === "public" ? contentPreview(p.content) : null,
    author: p.author,
    category: p.category,
    publishedOn: p.publishedOn,
    views: p.views,
    likes: p.likes,
  }));
  const newPostOpen = isAdmin && url.searchParams.get("new") === "1";
  return data(
    { posts, sort, isAdmin, newPostOpen },
    // A signed-in admin's page differs (New Post): never share it with a cache.
    isAdmin ? { headers: { "Cache-Control": "private, no-store" } } : undefined,
  );
}

/** Publishing is for a signed-in admin only; anyone else is refused before the form is read. */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request, context);
  if (!(await isAdminRequest(request, context))) {
    return data({ ok: false, toast: undefined, error: "Only a signed-in admin can publish posts" }, { status: 401 });
  }
  const form = await request.formData();
  if (textFields(form, ["intent"]).intent !== "publish")
    return data({ ok: false, toast: undefined, error: "Unknown action" }, { status: 400 });
  const parsed = newPostSchema.safeParse(Object.fromEntries(form));
  // The spec: with a required field empty nothing happens and no message is shown.
  if (!parsed.success) return data({ ok: false, toast: undefined, error: undefined }, { status: 400 });
  const post = await publishPost(context.db, parsed.data, context.clock.now());
  return {
    ok: true,
    slug: post.slug,
    error: undefined,
    toast: { title: "Post published", description: `"${post.title}" is now on the blog` },
  };
}

export default function Blog({ loaderData }: Route.ComponentProps) {
  const { posts, sort, isAdmin, newPostOpen } = loaderData;
  return (
    <section className="container-page py-12 sm:py-16">
      {/* Stacked on phones: whether the title and the controls share a row must not depend on which font has loaded (layout shift). */}
      <div className="flex flex-col gap-4 sm:flex-row sm:flex-wrap sm:items-end sm:justify-between">
        <h1 className="text-4xl font-semibold sm:text-5xl">Our Blog</h1>
        <div className="flex flex-wrap items-end gap-3">
          <SortForm action="/blog" id="blog-sort" sort={sort} choices={POST_SORTS} className="flex items-end gap-2" />
          {isAdmin ? <NewPostDialog openOnLoad={newPostOpen} /> : null}
        </div>
      </div>
      {posts.length === 0 ? (
        <p className="mt-10 text-ink-soft">No posts yet.</p>
      ) : (
        <div className="mt-10 grid gap-6 md:grid-cols-2">
          {posts.map((post) => (
            <PostCard key={post.slug} post={post} />
          ))}
        </div>
      )}
      <section aria-labelledby="blog-news-heading" className="card mt-12 p-6">
        <h2 id="blog-news-heading" className="font-display text-2xl">
          Hear about new pieces and workshops
        </h2>
        <div className="mt-4">
          <NewsSignUp form="blog" tone="light" labelledBy="blog-news-heading" />
        </div>
      </section>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Our Blog",
    description: "Stories on upcycling, slow fashion and styling from Honey Bee Sustainable Fashion.",
    path: "/blog",
    siteUrl: siteUrlFrom(matches),
  });
