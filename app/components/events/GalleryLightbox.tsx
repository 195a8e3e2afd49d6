import { useRef, useState } from "react";
import { Picture } from "~/components/ui/Picture";

/**
 * A grid of lazy thumbnails; a click opens the photo full size in a native modal <dialog>, which
 * traps focus and closes on Escape, and focus goes back to the thumbnail that opened it.
 */
export function GalleryLightbox({ photos }: { photos: { src: string; alt: string; caption?: string | null }[] }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const [current, setCurrent] = useState<number | null>(null);

  function open(index: number, button: HTMLButtonElement) {
    opener.current = button;
    setCurrent(index);
    dialog.current?.showModal();
  }

  return (
    <>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {photos.map((photo, i) => (
          <li key={photo.src}>
            <button
              type="button"
              onClick={(e) => open(i, e.currentTarget)}
              className={
                "block w-full overflow-hidden rounded-lg focus-visible:outline-3 " +
                "focus-visible:outline-offset-2 focus-visible:outline-ink"
              }
              aria-label={`Open ${photo.alt}`}
            >
              <Picture
                src={photo.src}
                sizes="(min-width: 1152px) 270px, (min-width: 1024px) 25vw, (min-width: 640px) 33vw, 50vw"
                priority={i === 0}
                alt=""
                width={600}
                height={600}
                loading={i < 2 ? "eager" : "lazy"}
                className="aspect-square w-full object-cover transition-transform hover:scale-105"
              />
            </button>
            {photo.caption ? <p className="mt-1 text-sm break-words text-ink-soft">{photo.caption}</p> : null}
          </li>
        ))}
      </ul>
      <dialog
        ref={dialog}
        aria-label={current === null ? "Photo" : photos[current]!.alt}
        onClose={() => {
          setCurrent(null);
          opener.current?.focus();
        }}
        className="m-auto max-h-[95vh] max-w-[95vw] rounded-xl bg-cream p-3 backdrop:bg-ink/80"
      >
        {current !== null ? (
          <figure>
            <Picture
              src={photos[current]!.src}
              sizes="95vw"
              loading="eager"
              alt={photos[current]!.alt}
              width={1200}
              height={1200}
              className="max-h-[80vh] w-auto object-contain"
            />
            <figcaption className="mt-2 flex items-center justify-between gap-4">
              <span className="break-words">{photos[current]!.caption || photos[current]!.alt}</span>
              <button type="button" className="btn-dark min-h-11" onClick={() => dialog.current?.close()} autoFocus>
                Close
              </button>
            </figcaption>
          </figure>
        ) : null}
      </dialog>
    </>
  );
}
