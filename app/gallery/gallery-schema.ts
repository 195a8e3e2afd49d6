// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";
import { isOneLine } from "~/lib/storable-text";
import { photoAltSchema } from "~/media/photo-schema";

const id = z.string().check(z.regex(/^[1-9]\d{0,8}$/, "This photo is no longer in the gallery."));

const caption = z
  .string()
  .check(
    z.trim(),
    z.maxLength(300, "Caption must be at most 300 characters."),
    z.refine(isOneLine, "Caption must be one line of text."),
  );

/** Adding photos: each with its alt text, an optional caption for all of them. */
export const galleryAddSchema = z.object({
  photos: z
    .array(photoAltSchema)
    .check(z.minLength(1, "Choose at least one photo to add."), z.maxLength(24, "Add at most 24 photos at a time.")),
  caption,
});

/** Editing one photo's words: its alt text (what a screen reader reads) and its caption. */
export const galleryCaptionSchema = z.object({
  id,
  alt: photoAltSchema.shape.alt,
  caption,
});

export const galleryMoveSchema = z.object({ id, direction: z.enum(["up", "down"], "Choose up or down.") });

export const galleryRemoveSchema = z.object({ id });

export type GalleryAddInput = z.infer<typeof galleryAddSchema>;
export type GalleryCaptionInput = z.infer<typeof galleryCaptionSchema>;
