// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";
import { isOneLine } from "~/lib/storable-text";
import { photoSchema } from "~/media/photo-schema";

const id = z.string().check(z.regex(/^[1-9]\d{0,8}$/, "This photo is no longer in the gallery."));

// photoSchema lets a NUL (which PostgreSQL cannot store) or a line break through: found by the generated-input tests.
const STORABLE_ALT = "Alt text must be one line of text.";

const caption = z.string().check(
  z.trim(),
  z.maxLength(300, "Caption must be at most 300 characters."),
  z.refine(isOneLine, "Caption must be one line of text."),
);

/** Adding photos: each with its alt text, an optional caption for all of them. */
export const galleryAddSchema = z.object({
  photos: z
    .array(photoSchema)
    .check(
      z.minLength(1, "Choose at least one photo to add."),
      z.maxLength(24, "Add at most 24 photos at a time."),
      z.refine((photos) => photos.every((p) => isOneLine(p.alt)), STORABLE_ALT),
    ),
  caption,
});

/** Editing one photo's words: its alt text (what a screen reader reads) and its caption. */
export const galleryCaptionSchema = z.object({
  id,
  alt: photoSchema.shape.alt.check(z.refine(isOneLine, STORABLE_ALT)),
  caption,
});

export const galleryMoveSchema = z.object({ id, direction: z.enum(["up", "down"], "Choose up or down.") });

export const galleryRemoveSchema = z.object({ id });

export type GalleryAddInput = z.infer<typeof galleryAddSchema>;
export type GalleryCaptionInput = z.infer<typeof galleryCaptionSchema>;
