import { useEffect, useState } from "react";
import { SlotImage } from "~/components/ui/SlotImage";
import { halfOfPageFrom } from "~/components/ui/Picture";

/**
 * Main image plus thumbnails (only when there is more than one image); the selected thumbnail is
 * highlighted. Each photo is described by the owner's alt text, or by the product's name and position.
 */
export function ProductGallery({
  photos,
  name,
  show = null,
}: {
  photos: { src: string; alt: string }[];
  name: string;
  /** A photo to bring forward (a chosen size's or colour's own photo). */
  show?: string | null;
}) {
  const [selected, setSelected] = useState(0);
  useEffect(() => {
    const index = show ? photos.findIndex((p) => p.src === show) : -1;
    if (index >= 0) setSelected(index);
  }, [show, photos]);
  const images = photos.map((p) => p.src);
  const main = images[selected] ?? images[0];
  const mainPhoto = photos[selected] ?? photos[0];
  return (
    <div>
      {main && (
        <SlotImage
          src={main}
          alt={mainPhoto?.alt || (images.length > 1 ? `${name}, photo ${selected + 1} of ${images.length}` : name)}
          slot="portrait"
          sizes={halfOfPageFrom("md")}
          priority
          className="card h-auto w-full rounded-3xl object-cover"
        />
      )}
      {images.length > 1 && (
        <ul className="mt-4 flex flex-wrap gap-3" aria-label={`${name} photos`}>
          {images.map((src, i) => (
            <li key={src}>
              <button
                type="button"
                onClick={() => setSelected(i)}
                aria-pressed={i === selected}
                aria-label={`Show photo ${i + 1} of ${images.length}`}
                className={
                  `block overflow-hidden rounded-2xl border-2 transition focus-visible:outline-2 ` +
                  `focus-visible:outline-offset-2 focus-visible:outline-ink ${
                    i === selected
                      ? "border-honey ring-2 ring-honey"
                      : "border-transparent opacity-75 hover:opacity-100"
                  }`
                }
              >
                <SlotImage src={src} alt="" slot="portrait" sizes="80px" className="h-25 w-20 object-cover" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
