import type { ImgHTMLAttributes } from "react";
import { responsiveImage } from "~/lib/image-renditions";

/** Aspect ratios of the photography slots (see docs/images.md). */
export const slotSizes = {
  portrait: { width: 800, height: 1000 },
  square: { width: 800, height: 800 },
  wide: { width: 1200, height: 800 },
  hero: { width: 1600, height: 1000 },
} as const;

type Slot = keyof typeof slotSizes;

interface SlotImageProps
  extends Omit<ImgHTMLAttributes<HTMLImageElement>, "width" | "height" | "src" | "alt" | "sizes" | "srcSet"> {
  src: string;
  alt: string;
  slot: Slot;
  /** How wide the image is drawn at each breakpoint (the `sizes` attribute), so a phone fetches the small rendition. */
  sizes: string;
  /** The first screen's image: load eagerly with high priority (React also preloads it in the document head). */
  priority?: boolean;
}

/** An image in one of the brand's photography slots: sized (no layout shift), responsive, and lazy unless it is the first screen's. */
export function SlotImage({ src, alt, slot, sizes, priority = false, className, ...rest }: SlotImageProps) {
  const { width, height } = slotSizes[slot];
  return (
    <img
      {...responsiveImage(src, sizes)}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? "eager" : "lazy"}
      decoding={priority ? "sync" : "async"}
      fetchPriority={priority ? "high" : "auto"}
      className={className}
      {...rest}
    />
  );
}
