import type { ImgHTMLAttributes } from "react";
import { preload } from "react-dom";
import { renditionSrcSet } from "~/lib/image-renditions";

export interface PictureProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, "src" | "srcSet" | "sizes"> {
  src: string;
  alt: string;
  /** How wide the image is drawn at each breakpoint (the `sizes` attribute), so a phone fetches a small rendition. */
  sizes: string;
  /** The first screen's largest image: preloaded from the document head, fetched eagerly with high priority. */
  priority?: boolean;
  /** An uploaded photo's own width, when known: its `srcset` then lists only the widths it has. */
  intrinsicWidth?: number;
}

const BREAKPOINTS = { sm: 640, md: 768, lg: 1024 } as const;

/**
 * `sizes` for the site's most common layout: one of two columns in the page container, full width
 * below the breakpoint where the columns start. The container stops growing at 1152 px, where a
 * column is 540 px wide.
 */
export function halfOfPageFrom(breakpoint: keyof typeof BREAKPOINTS): string {
  return `(min-width: 1152px) 540px, (min-width: ${BREAKPOINTS[breakpoint]}px) 50vw, 100vw`;
}

/**
 * An image offered as AVIF, then WebP, at 400, 800 and 1200 px, with the original as the fallback.
 * The `<picture>` is `display: contents`, so the `<img>` lays out exactly as it would alone.
 */
export function Picture({
  src,
  sizes,
  priority = false,
  intrinsicWidth,
  loading,
  fetchPriority,
  decoding,
  ...img
}: PictureProps) {
  const avif = renditionSrcSet(src, "avif", intrinsicWidth);
  const webp = renditionSrcSet(src, "webp", intrinsicWidth);
  // React does not preload an <img> inside a <picture> (the browser picks the source), so the first
  // screen's image is preloaded here, as AVIF: a browser without AVIF skips a preload of that type.
  if (priority) {
    preload(
      src,
      avif
        ? { as: "image", type: "image/avif", imageSrcSet: avif, imageSizes: sizes, fetchPriority: "high" }
        : { as: "image", fetchPriority: "high" },
    );
  }
  const element = (
    <img
      src={src}
      srcSet={webp}
      sizes={webp ? sizes : undefined}
      loading={loading ?? (priority ? "eager" : "lazy")}
      fetchPriority={fetchPriority ?? (priority ? "high" : "auto")}
      decoding={decoding ?? (priority ? "sync" : "async")}
      {...img}
    />
  );
  if (!avif) return element;
  return (
    <picture className="contents">
      <source type="image/avif" srcSet={avif} sizes={sizes} />
      {element}
    </picture>
  );
}
