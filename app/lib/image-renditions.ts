/**
 * Responsive AVIF and WebP renditions of the files under `public/images/`.
 *
 * The build writes `name.<width>w.avif` and `name.<width>w.webp` beside every image
 * (scripts/image-renditions.js), so a phone gets a 400 px AVIF of a few kilobytes and a wide screen the
 * 1200 px one. The original stays the `src`: it is what a browser with neither format shows and what
 * the owner replaces.
 */
export const RENDITION_WIDTHS = [400, 800, 1200] as const;

// Only local images have renditions; the share card (og/) is never shown on a page.
const HAS_RENDITIONS = /^\/images\/(?!og\/)[\w./-]+\.(?:svg|jpe?g|png|webp|avif)$/i;
const RENDITION = /\.\d+w\.(?:avif|webp)$/i;

/**
 * An uploaded photo (decision 078): named by the first 20 hex characters of its master's SHA-256,
 * served from the database by app/routes/media.ts with renditions at the same widths.
 */
export const UPLOADED_PHOTO_SRC = /^\/media\/[0-9a-f]{20}\.webp$/;

export type RenditionFormat = "avif" | "webp";

export function hasRenditions(src: string): boolean {
  if (UPLOADED_PHOTO_SRC.test(src)) return true;
  return HAS_RENDITIONS.test(src) && !RENDITION.test(src) && !src.includes("..");
}

/**
 * The widths an uploaded photo of `masterWidth` pixels has: each standard width narrower than it,
 * then its own width when that is under the largest (never upscaled). A 600 px photo has 400 and 600.
 */
export function renditionWidthsFor(masterWidth: number): number[] {
  const below = RENDITION_WIDTHS.filter((w) => w < masterWidth);
  const top = Math.min(masterWidth, RENDITION_WIDTHS[RENDITION_WIDTHS.length - 1]);
  return [...below.filter((w) => w !== top), top];
}

export function renditionUrl(src: string, width: number, format: RenditionFormat): string {
  return src.replace(/\.[a-z]+$/i, `.${width}w.${format}`);
}

/**
 * The `srcset` of one format's renditions, or undefined for an image without renditions.
 * `intrinsicWidth`, when the caller knows it (an uploaded photo's `width`), limits the list to the
 * widths that exist; without it every standard width is listed, and the media route answers a width
 * a small photo lacks with its largest rendition.
 */
export function renditionSrcSet(src: string, format: RenditionFormat, intrinsicWidth?: number): string | undefined {
  if (!hasRenditions(src)) return undefined;
  const widths =
    intrinsicWidth && intrinsicWidth > 0 ? renditionWidthsFor(Math.round(intrinsicWidth)) : RENDITION_WIDTHS;
  return widths.map((w) => `${renditionUrl(src, w, format)} ${w}w`).join(", ");
}
