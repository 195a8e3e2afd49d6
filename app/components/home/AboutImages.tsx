import { SlotImage } from "~/components/ui/SlotImage";

const ABOUT_IMAGES = [
  {
    src: "/images/about/model.svg",
    alt: "A Honey Bee model wearing an upcycled, handmade outfit",
    slot: "wide" as const,
  },
  {
    src: "/images/about/collection-showcase.svg",
    alt: "A showcase of the Honey Bee upcycled collection",
    slot: "wide" as const,
  },
  {
    src: "/images/about/brand-story.svg",
    alt: "The Honey Bee brand story and values: reuse, beauty and community",
    slot: "wide" as const,
  },
];

/** The three full-width stacked About images on a honey-yellow background. */
export function AboutImages() {
  return (
    <div className="bg-honey py-10 sm:py-14">
      <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 sm:gap-8 sm:px-6">
        {ABOUT_IMAGES.map((img) => (
          <SlotImage
            key={img.src}
            src={img.src}
            alt={img.alt}
            slot={img.slot}
            sizes="(min-width: 1024px) 1024px, 100vw"
            className="h-auto w-full rounded-3xl shadow-md"
          />
        ))}
      </div>
    </div>
  );
}
