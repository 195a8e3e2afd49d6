import { z } from "zod";
import { isStorableText } from "~/lib/storable-text";
import { DEFAULT_POST_AUTHOR, DEFAULT_POST_CATEGORY } from "./post-options";

export * from "./post-options";

const text = () => z.string().refine(isStorableText, "contains a character we cannot store");

const defaulted = (fallback: string, max: number) =>
  text()
    .trim()
    .max(max)
    .optional()
    .transform((v) => v || fallback);

/** The "New Post" form as the server accepts it; the dialog checks the same required fields (post-options.ts). */
export const newPostSchema = z.object({
  title: text().trim().min(1).max(200),
  excerpt: text().trim().min(1).max(500),
  author: defaulted(DEFAULT_POST_AUTHOR, 100),
  category: defaulted(DEFAULT_POST_CATEGORY, 60),
  content: text().trim().min(1).max(50_000),
});

export type NewPost = z.infer<typeof newPostSchema>;

/** "The Art of Upcycling!" -> "the-art-of-upcycling". */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "post";
}
