import { useEffect, useState } from "react";
import { data, Link, useFetcher } from "react-router";
import { z } from "zod";
import { isAdminRequest } from "~/admin/session.server";
import { assertSameOrigin } from "~/auth/cookies.server";
import { getAnalyticsSessionId } from "~/analytics/track";
import { renderMarkdown } from "~/blog/markdown.server";
import { findPost } from "~/blog/posts.server";
import { audienceTiersBySlug, readerAccess } from "~/blog/post-access.server";
import { joinHref, lockLabel } from "~/blog/post-audience";
import { reactAsVisitor } from "~/blog/reactions.server";
import { countsText, LockBadge } from "~/components/blog/PostCard";
import { dayMonthYear } from "~/lib/dates-in-words";
import { useHydrated } from "~/components/ui/toast";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/blog-post";

const SLUG = /^[a-z0-9-]{1,100}$/;

async function postOr404(db: Parameters<typeof findPost>[0], slug: string | undefined) {
  const post = slug && SLUG.test(slug) ? await findPost(db, slug) : undefined;
  if (!post) throw data({ message: "Post not found" }, { status: 404 });
  return post;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const post = await postOr404(context.db, params.slug);
  const access = await readerAccess(request, context, post);
  const tiers = (await audienceTiersBySlug(context.db, [post]))(post);
  const lock = lockLabel(post.audience, tiers);
  // The owner previews a locked post with its text. Her request carries the admin cookie, which the
  // page cache never serves or stores, and the answer below is private too.
  const preview = !access.readable && (await isAdminRequest(request, context));
  // A members-only post is rendered without its text unless the signed-in member may read it; a
  // member's page is theirs alone, never stored by a browser or shared cache (the page cache skips any
  // request with a cookie).
  return data(
    {
      post: {
        slug: post.slug,
        title: post.title,
        excerpt: post.excerpt,
        author: post.author,
        category: post.category,
        publishedOn: post.publishedOn,
        views: post.views,
        likes: post.likes,
        image: post.image,
        membersOnly: post.audience !== "public",
        html: access.readable || preview ? renderMarkdown(post.content) : null,
      },
      lock:
        lock && !access.readable && !preview
          ? { label: lock, joinHref: joinHref(post.audience, tiers), signedIn: access.signedIn }
          : null,
      lockLabel: lock,
      preview,
    },
    access.signedIn || preview ? { headers: { "Cache-Control": "private, no-store" } } : undefined,
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

const reactionSchema = z.object({
  intent: z.enum(["view", "like"]),
  // Sent by older pages still open in a browser; who reacted is the server's to decide.
  sessionId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/)
    .optional(),
});

/** A view (sent once on opening the post) or a like, each counted once per visitor (decision 108). */
export async function action({ request, params, context }: Route.ActionArgs) {
  assertSameOrigin(request, context);
  const post = await postOr404(context.db, params.slug);
  const parsed = reactionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ ok: false, views: post.views, likes: post.likes, liked: false }, { status: 400 });
  const reaction = await reactAsVisitor(context, post.id, parsed.data.intent, request.headers.get("user-agent") ?? "");
  if (reaction.status === "limited") {
    return data(
      { ok: false, views: post.views, likes: post.likes, liked: false },
      { status: 429, headers: { "Retry-After": "3600" } },
    );
  }
  return { ok: true, views: reaction.views, likes: reaction.likes, liked: reaction.liked };
}

export default function BlogPost({ loaderData }: Route.ComponentProps) {
  const { post, lock, lockLabel: label, preview } = loaderData;
  const view = useFetcher<typeof action>();
  const like = useFetcher<typeof action>();
  const hydrated = useHydrated();
  const [sessionId, setSessionId] = useState("");

  useEffect(() => {
    const id = getAnalyticsSessionId();
    setSessionId(id);
    view.submit(
      { intent: "view", sessionId: id },
      { method: "post", action: `/blog/${post.slug}`, preventScrollReset: true },
    );
    // Once per post opened; the fetcher object itself changes identity between renders.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [post.slug]);

  const latest = like.data ?? view.data;
  const views = latest?.views ?? post.views;
  const likes = latest?.likes ?? post.likes;
  const liked = Boolean(like.data?.liked || view.data?.liked);

  return (
    <article className="container-page max-w-3xl py-12 sm:py-16">
      <Link to="/blog" className="link">
        Back to Blog
      </Link>
      {preview ? <MembersOnlyPreview label={label} /> : null}
      <div className="mt-6 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-soft">
        <span className="rounded-full bg-honey px-3 py-0.5 text-xs font-semibold text-ink">{post.category}</span>
        <span>{post.author}</span>
        <time dateTime={post.publishedOn}>{dayMonthYear(post.publishedOn)}</time>
      </div>
      <h1 className="mt-3 text-4xl font-semibold sm:text-5xl">{post.title}</h1>
      {label ? <LockBadge label={label} /> : null}
      <p className="mt-4 text-lg text-ink-soft">{post.excerpt}</p>
      {post.html === null ? null : (
        <div
          className={
            "post-body mt-8 space-y-4 break-words text-lg leading-relaxed [&_a]:text-accent [&_a]:underline " +
            "[&_h2]:text-2xl [&_h2]:font-semibold [&_h3]:text-xl [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 " +
            "[&_ul]:list-disc [&_ul]:pl-6 [&_blockquote]:border-l-4 [&_blockquote]:border-honey [&_blockquote]:pl-4 " +
            "[&_code]:rounded [&_code]:bg-cream-deep [&_code]:px-1"
          }
          // Rendered by markdown-it with html:false on the server: post HTML is escaped, never run.
          dangerouslySetInnerHTML={{ __html: post.html }}
        />
      )}
      {lock ? <JoinToRead {...lock} /> : null}
      <div className="mt-10 flex flex-wrap items-center gap-4 border-t border-ink/10 pt-6">
        <span className="text-ink-soft" aria-live="polite">
          {countsText(views, likes)}
        </span>
        <like.Form method="post" action={`/blog/${post.slug}`} preventScrollReset>
          <input type="hidden" name="intent" value="like" />
          <input type="hidden" name="sessionId" value={sessionId} />
          <button
            type="submit"
            className="btn-primary"
            disabled={!hydrated || !sessionId || liked || like.state !== "idle"}
            aria-pressed={liked}
          >
            {liked ? "Liked" : "Like"}
          </button>
        </like.Form>
      </div>
    </article>
  );
}

/** Over a locked post's text when the signed-in owner reads it: only she and its members see it. */
function MembersOnlyPreview({ label }: { label: string | null }) {
  const readers = !label || label === "Members only" ? "its members" : label.replace(/^For /, "");
  return (
    <div role="note" aria-label="Preview: members only" className="mt-6 rounded-2xl border-2 border-ink bg-honey p-4">
      <p className="font-semibold">Preview: members only</p>
      <p className="mt-1 text-sm">
        Only you, signed in as the owner, and {readers} read this text here. Visitors see the excerpt and Join to read.
      </p>
    </div>
  );
}

/** In place of a members-only post's text, for anyone who may not read it. */
function JoinToRead({ label, joinHref, signedIn }: { label: string; joinHref: string; signedIn: boolean }) {
  return (
    <section aria-labelledby="join-heading" className="card mt-8 p-5 sm:p-6">
      <h2 id="join-heading" className="text-2xl font-semibold">
        {label === "Members only" ? "This post is for members" : `This post is ${label.replace(/^For/, "for")}`}
      </h2>
      <p className="mt-2 text-ink-soft">
        {signedIn
          ? "Your membership does not include this post, or it is not paid up today."
          : "Members read the whole post here, signed in on this site."}
      </p>
      <Link to={joinHref} className="btn-primary mt-4">
        Join to read
      </Link>
      {signedIn ? null : (
        <p className="mt-4 text-sm text-ink-soft">
          Already a member?{" "}
          <Link to="/account" className="link">
            Sign in
          </Link>{" "}
          and open this post again.
        </p>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  const siteUrl = siteUrlFrom(matches);
  if (!loaderData) return [{ title: "Post not found" }];
  const { post } = loaderData;
  return seo({
    title: post.title,
    description: post.excerpt,
    path: `/blog/${post.slug}`,
    siteUrl,
    // The cover photo chosen in /admin/blog is the picture a shared link shows.
    image: post.image ?? undefined,
    type: "article",
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        headline: post.title,
        description: post.excerpt,
        author: { "@type": "Person", name: post.author },
        datePublished: post.publishedOn,
        url: `${siteUrl}/blog/${post.slug}`,
        // Search engines see only the excerpt of a members-only post (schema.org's paywalled content).
        ...(post.membersOnly ? { isAccessibleForFree: false } : {}),
      },
    ],
  });
};

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = (error as { status?: number } | undefined)?.status === 404;
  return (
    <section className="container-page py-20 text-center">
      <h1 className="text-3xl font-semibold sm:text-4xl">{notFound ? "Post not found" : "Something went wrong"}</h1>
      <p className="mx-auto mt-4 max-w-xl text-ink-soft">
        {notFound ? "This post does not exist or has been removed." : "Please try again in a moment."}
      </p>
      <Link to="/blog" className="btn-primary mt-8">
        Back to Blog
      </Link>
    </section>
  );
}
