import { Link } from "react-router";
import { dayMonthYear } from "~/lib/dates-in-words";

export interface PostCardData {
  slug: string;
  title: string;
  excerpt: string;
  /** "Members only" or "For Glow Bee members"; null for a post everyone reads. */
  lock: string | null;
  /** The text's start; null for a members-only post, whose text never reaches a public page. */
  preview: string | null;
  author: string;
  category: string;
  publishedOn: string;
  views: number;
  likes: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
export const countsText = (views: number, likes: number) => `${plural(views, "view")} · ${plural(likes, "like")}`;

const LOCK_CLASS =
  "mt-2 inline-flex items-center gap-2 self-start rounded-full border border-ink/25 px-3 py-0.5 text-sm font-semibold text-ink";
const PADLOCK =
  "M10 1a5 5 0 0 0-5 5v3H4a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-8a1 1 0 0 0-1-1h-1V6a5 5 0 0 0-5-5Z" +
  "m-3 8V6a3 3 0 1 1 6 0v3H7Z";

/** A padlock and who the post is for; the icon is decoration, the words say it. */
export function LockBadge({ label }: { label: string }) {
  return (
    <p className={LOCK_CLASS}>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 shrink-0 fill-current">
        <path d={PADLOCK} />
      </svg>
      {label}
    </p>
  );
}

export function PostCard({ post }: { post: PostCardData }) {
  return (
    <article className="card flex flex-col p-5 sm:p-6">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-soft">
        <span className="rounded-full bg-honey px-3 py-0.5 text-xs font-semibold text-ink">{post.category}</span>
        <span>{post.author}</span>
        <time dateTime={post.publishedOn}>{dayMonthYear(post.publishedOn)}</time>
      </div>
      <h2 className="mt-3 text-2xl font-semibold">{post.title}</h2>
      {post.lock ? <LockBadge label={post.lock} /> : null}
      <p className="mt-2 font-semibold text-ink-soft">{post.excerpt}</p>
      {post.preview === null ? null : (
        <p className="mt-2 whitespace-pre-line break-words text-ink-soft">{post.preview}</p>
      )}
      <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-4">
        <span className="text-sm text-ink-soft">{countsText(post.views, post.likes)}</span>
        <Link to={`/blog/${post.slug}`} className="btn-dark">
          Read More<span className="sr-only">: {post.title}</span>
        </Link>
      </div>
    </article>
  );
}
