import { Picture, type PictureProps } from "./Picture";

/** Aspect ratios of the photography slots (see docs/images.md). */
export const slotSizes = {
  portrait: { width: 800, height: 1000 },
  square: { width: 800, height: 800 },
  wide: { width: 1200, height: 800 },
  hero: { width: 1600, height: 1000 },
} as const;

type Slot = keyof typeof slotSizes;

interface SlotImageProps extends Omit<PictureProps, "width" | "height"> {
  slot: Slot;
}

/** An image in one of the brand's photography slots: sized (no layout shift), responsive, and lazy unless it is the first screen's. */
export function SlotImage({ slot, ...rest }: SlotImageProps) {
  const { width, height } = slotSizes[slot];
  return <Picture width={width} height={height} {...rest} />;
}
