import * as z from "zod/mini";

/** A shipped image slot (public/images) or an uploaded photo (/media/<content hash>.webp). */
export const PHOTO_SRC = /^(\/images\/(?!og\/)[\w/-]+\.(?:svg|jpe?g|png|webp|avif)|\/media\/[a-f0-9]{20}\.webp)$/;

/** One photo of a product, event or post, with the alt text a screen reader reads for it. */
export const photoSchema = z.object({
  src: z.string().check(z.regex(PHOTO_SRC, "This photo could not be found. Please upload it again.")),
  alt: z.string().check(
    z.trim(),
    z.minLength(1, "Alt text is required"),
    z.maxLength(200, "Alt text must be at most 200 characters."),
  ),
});

export type Photo = z.infer<typeof photoSchema>;
