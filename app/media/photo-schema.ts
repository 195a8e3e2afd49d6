// zod/mini: the admin forms check photos in the browser too (docs/decisions/060-zod-mini-in-the-browser.md).
import * as z from "zod/mini";
import { hasRenditions, UPLOADED_PHOTO_SRC } from "~/lib/image-renditions";
import { isOneLine } from "~/lib/storable-text";

/** The largest photo the owner can upload, in bytes: a phone's full-resolution JPEG fits easily. */
export const MAX_PHOTO_BYTES = 20 * 1024 * 1024;

/** What the file picker offers; HEIC/HEIF is accepted only when the image library can decode it. */
export const PHOTO_ACCEPT = "image/jpeg,image/png,image/webp,image/avif,image/heic,image/heif";

export const PHOTO_ALT_MAX = 200;
export const ALT_REQUIRED = "Alt text is required";

/** A shipped slot under /images/ (public/images, with build-time renditions) or an uploaded photo. */
export function isPhotoSrc(src: string): boolean {
  return UPLOADED_PHOTO_SRC.test(src) || (src.startsWith("/images/") && hasRenditions(src));
}

/** One photo of a product, event, post or the gallery, as its form sends it. */
export const photoAltSchema = z.object({
  src: z.string().check(z.refine(isPhotoSrc, "This photo is not one of the shop's images; upload it again.")),
  alt: z.string({ error: ALT_REQUIRED }).check(
    z.trim(),
    z.minLength(1, ALT_REQUIRED),
    z.maxLength(PHOTO_ALT_MAX, `Alt text must be at most ${PHOTO_ALT_MAX} characters.`),
    // PostgreSQL cannot store a NUL, and an alt text is one line (found by the generated-input tests).
    z.refine(isOneLine, "Alt text must be one line of text."),
  ),
});

export type PhotoWithAlt = z.infer<typeof photoAltSchema>;

/** What storing a photo gives back: the URL to reference it by, its size and the file's name. */
export interface StoredPhoto {
  src: string;
  width: number;
  height: number;
  name: string;
}

export const TOO_LARGE_MESSAGE =
  `is larger than ${MAX_PHOTO_BYTES / 1024 / 1024} MB. Export a smaller copy (most ` +
  `phones offer one when sharing) and try again.`;

/**
 * Images with their alt texts, a missing one described by what the photo belongs to ("Candy Earrings,
 * photo 2 of 3"): what the public pages say for seeded images, and what the owner's editor starts from,
 * so a seeded product or event can be saved without retyping every description.
 */
export function photosWithAlts(images: string[], alts: string[], name: string): PhotoWithAlt[] {
  return images.map((src, i) => ({
    src,
    alt: alts[i]?.trim() || (images.length > 1 ? `${name}, photo ${i + 1} of ${images.length}` : name),
  }));
}
