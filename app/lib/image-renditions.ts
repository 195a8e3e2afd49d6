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

export type RenditionFormat = "avif" | "webp";

export function hasRenditions(src: string): boolean {
  return HAS_RENDITIONS.test(src) && !RENDITION.test(src) && !src.includes("..");
}

export function renditionUrl(src: string, width: number, format: RenditionFormat): string {
  return src.replace(/\.[a-z]+$/i, `.${width}w.${format}`);
}

/** The `srcset` of one format's renditions, or undefined for an image without renditions. */
export function renditionSrcSet(src: string, format: RenditionFormat): string | undefined {
  if (!hasRenditions(src)) return undefined;
  return RENDITION_WIDTHS.map((w) => `${renditionUrl(src, w, format)} ${w}w`).join(", ");
}
