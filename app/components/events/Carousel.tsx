import { useEffect, useState } from "react";
import { halfOfPageFrom, Picture } from "~/components/ui/Picture";

export const CAROUSEL_INTERVAL_MS = 3000;

/**
 * A looping image carousel that advances every 3 s, pauses while hovered or focused, never
 * autoplays for visitors who prefer reduced motion, and moves with the arrow keys when focused.
 */
export function Carousel({ images, label }: { images: string[]; label: string }) {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [reducedMotion, setReducedMotion] = useState(true);
  const count = images.length;
  const go = (delta: number) => setIndex((i) => (i + delta + count) % count);

  useEffect(() => {
    const query = window.matchMedia("(prefers-reduced-motion: reduce)");
    setReducedMotion(query.matches);
    const onChange = () => setReducedMotion(query.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);

  useEffect(() => {
    if (paused || reducedMotion || count < 2) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % count), CAROUSEL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [paused, reducedMotion, count]);

  return (
    <section
      aria-roledescription="carousel"
      aria-label={label}
      tabIndex={0}
      className="relative overflow-hidden rounded-xl focus:outline-3 focus:outline-offset-2 focus:outline-honey"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setPaused(false);
      }}
      onKeyDown={(e) => {
        if (e.key === "ArrowRight") {
          e.preventDefault();
          go(1);
        }
        if (e.key === "ArrowLeft") {
          e.preventDefault();
          go(-1);
        }
      }}
    >
      <div aria-live={paused ? "polite" : "off"}>
        {images.map((src, i) => (
          <div
            key={src}
            role="group"
            aria-roledescription="slide"
            aria-label={`Slide ${i + 1} of ${count}`}
            hidden={i !== index}
          >
            <Picture
              src={src}
              sizes={halfOfPageFrom("lg")}
              priority={i === 0}
              alt={`${label}, photo ${i + 1} of ${count}`}
              width={1200}
              height={800}
              className="aspect-[3/2] w-full object-cover"
            />
          </div>
        ))}
      </div>
      <button
        type="button"
        onClick={() => go(-1)}
        aria-label="Previous slide"
        className={
          "absolute left-2 top-1/2 flex h-11 w-11 -translate-y-1/2 items-center justify-center rounded-full " +
          "bg-cream text-2xl text-ink shadow"
        }
      >
        <span aria-hidden="true">‹</span>
      </button>
      <button
        type="button"
        onClick={() => go(1)}
        aria-label="Next slide"
        className={
          "absolute right-2 top-1/2 flex h-11 w-11 -translate-y-1/2 items-center justify-center rounded-full " +
          "bg-cream text-2xl text-ink shadow"
        }
      >
        <span aria-hidden="true">›</span>
      </button>
      <p
        className="absolute bottom-2 left-1/2 -translate-x-1/2 rounded-full bg-ink/80 px-3 py-1 text-sm text-cream"
        aria-hidden="true"
      >
        {index + 1} / {count}
      </p>
    </section>
  );
}
