import { Link } from "react-router";
import { dayMonthYear } from "~/lib/dates-in-words";

export interface PostCardData {
  slug: string;
  title: string;
  excerpt: string;
  preview: string;
  author: string;
  category: string;
  publishedOn: string;
  views: number;
  likes: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
export const countsText = (views: number, likes: number) => `${plural(views, "view")} · ${plural(likes, "like")}`;

export function PostCard({ post }: { post: PostCardData }) {
  return (
    <article className="card flex flex-col p-5 sm:p-6">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-soft">
        <span className="rounded-full bg-honey px-3 py-0.5 text-xs font-semibold text-ink">{post.category}</span>
        <span>{post.author}</span>
        <time dateTime={post.publishedOn}>{dayMonthYear(post.publishedOn)}</time>
      </div>
      <h2 className="mt-3 text-2xl font-semibold">{post.title}</h2>
      <p className="mt-2 font-semibold text-ink-soft">{post.excerpt}</p>
      <p className="mt-2 whitespace-pre-line break-words text-ink-soft">{post.preview}</p>
      <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-4">
        <span className="text-sm text-ink-soft">{countsText(post.views, post.likes)}</span>
        <Link to={`/blog/${post.slug}`} className="btn-dark">
          Read More<span className="sr-only">: {post.title}</span>
        </Link>
      </div>
    </article>
  );
}
