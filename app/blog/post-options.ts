/** Blog constants the browser needs, kept free of Zod so the public blog page stays light. */
export const DEFAULT_POST_AUTHOR = "Honey Bee";
export const DEFAULT_POST_CATEGORY = "General";

export const POST_SORTS = [
  { value: "date", label: "Date (Newest)" },
  { value: "views", label: "Most Views" },
  { value: "likes", label: "Most Likes" },
  { value: "title", label: "Title (A-Z)" },
] as const;
export type PostSort = (typeof POST_SORTS)[number]["value"];

export const parsePostSort = (value: string | null): PostSort =>
  POST_SORTS.some((s) => s.value === value) ? (value as PostSort) : "date";

/** The spec's card preview: the first 300 characters of the content and an ellipsis. */
export const PREVIEW_LENGTH = 300;
export const contentPreview = (content: string) => `${content.slice(0, PREVIEW_LENGTH)}...`;

/** The "New Post" fields that must not be empty (the spec: otherwise nothing happens). */
export const REQUIRED_POST_FIELDS = ["title", "excerpt", "content"] as const;
