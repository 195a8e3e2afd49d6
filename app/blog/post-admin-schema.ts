// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";
import { isCleanText, isOneLine } from "~/lib/storable-text";
import { photoAltSchema } from "~/media/photo-schema";
import { DEFAULT_POST_AUTHOR, DEFAULT_POST_CATEGORY } from "./post-options";
import { POST_AUDIENCES } from "./post-audience";

const line = (label: string, max: number, required: boolean) =>
  z.string().check(
    z.trim(),
    z.refine((v) => !required || v.length > 0, `${label} is required.`),
    z.maxLength(max, `${label} must be at most ${max} characters.`),
    z.refine(isOneLine, `${label} must be one line of text.`),
  );

const longText = (label: string, max: number) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, `${label} is required.`),
      z.maxLength(max, `${label} must be at most ${max} characters.`),
      z.refine(isCleanText, `${label} contains a control character: please retype it.`),
    );

/**
 * The post form in /admin/blog: the same limits as the New Post dialog on /blog, plus a cover photo
 * and who may read it. Whether each ticked plan exists is the server's to check (post-admin.server.ts).
 */
export const postAdminSchema = z
  .object({
    title: line("Title", 200, true),
    excerpt: longText("Excerpt", 500),
    author: line("Author", 100, false),
    category: line("Category", 60, false),
    content: longText("Content", 50_000),
    photos: z.array(photoAltSchema).check(z.maxLength(1, "A post has one cover photo: remove the others.")),
    audience: z.enum(POST_AUDIENCES, "Choose who can read the post."),
    audienceTiers: z
      .array(z.string().check(z.regex(/^[a-z0-9-]{1,100}$/, "Choose plans from the list.")))
      .check(z.maxLength(50, "Choose plans from the list.")),
  })
  .check(
    z.refine((p) => p.audience !== "tiers" || p.audienceTiers.length > 0, {
      message: "Tick at least one plan, or choose another audience.",
      path: ["audienceTiers"],
    }),
  );

export type PostAdminInput = z.infer<typeof postAdminSchema>;

export const POST_TEXT_FIELDS = ["title", "excerpt", "author", "category", "content"] as const;

/** What the form's fields become in the post's row (an empty author or category takes the blog's default). */
export function postRowValues(input: PostAdminInput) {
  const cover = input.photos[0];
  return {
    title: input.title,
    excerpt: input.excerpt,
    author: input.author || DEFAULT_POST_AUTHOR,
    category: input.category || DEFAULT_POST_CATEGORY,
    content: input.content,
    image: cover?.src ?? null,
    imageAlt: cover?.alt ?? null,
    audience: input.audience,
    // Ticked plans mean nothing unless the post is for chosen plans.
    audienceTiers: input.audience === "tiers" ? [...new Set(input.audienceTiers)] : [],
  };
}
