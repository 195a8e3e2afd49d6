/**
 * Responsive WebP renditions of the files under `public/images/`.
 *
 * The build writes `name.<width>w.webp` beside every image (scripts/image-renditions.js), so a
 * page can offer a phone the 400 px file and a wide screen the 1200 px one. The original stays the
 * `src`: it is what a browser without `srcset` shows and what the owner replaces.
 */
export const RENDITION_WIDTHS = [400, 800, 1200] as const;

// Only local images have renditions; the share card (og/) is never shown on a page.
const HAS_RENDITIONS = /^\/images\/(?!og\/)[\w./-]+\.(?:svg|jpe?g|png|webp|avif)$/i;
const RENDITION = /\.\d+w\.webp$/i;

export function hasRenditions(src: string): boolean {
  return HAS_RENDITIONS.test(src) && !RENDITION.test(src) && !src.includes("..");
}

export function renditionUrl(src: string, width: number): string {
  return src.replace(/\.[a-z]+$/i, `.${width}w.webp`);
}

/** `src`, `srcSet` and `sizes` for an `<img>`; `sizes` says how wide the image is drawn at each breakpoint. */
export function responsiveImage(src: string, sizes: string): { src: string; srcSet?: string; sizes?: string } {
  if (!hasRenditions(src)) return { src };
  return {
    src,
    srcSet: RENDITION_WIDTHS.map((w) => `${renditionUrl(src, w)} ${w}w`).join(", "),
    sizes,
  };
}
