import { Link } from "react-router";
import { SlotImage } from "~/components/ui/SlotImage";

export interface ItemCardData {
  slug: string;
  name: string;
  priceText: string;
  image: string | null;
  imageAlt?: string;
  soldOut: boolean;
  limitedStock: number | null;
  /** Marked "New" by the owner within the last 30 days. */
  isNew?: boolean;
}

const badgeClass = "rounded-full px-2.5 py-1 text-[0.6875rem] font-bold tracking-wider sm:px-3 sm:text-xs";

/** A product/service card: links to its page unless it is sold out (then dimmed, struck price). */
export function ItemCard({ item, priority = false }: { item: ItemCardData; priority?: boolean }) {
  const body = (
    <>
      <div className="relative overflow-hidden rounded-t-3xl bg-cream-deep">
        {item.image && (
          <SlotImage
            src={item.image}
            alt={item.imageAlt || item.name}
            slot="portrait"
            sizes="(min-width: 1152px) 350px, (min-width: 1024px) 33vw, 50vw"
            priority={priority}
            className="h-auto w-full object-cover"
          />
        )}
        {item.soldOut || item.limitedStock !== null || item.isNew ? (
          <div className="absolute top-2 left-2 flex flex-col items-start gap-1 sm:top-3 sm:left-3">
            {item.soldOut && <span className={`${badgeClass} bg-ink text-cream`}>SOLD OUT</span>}
            {item.limitedStock !== null && (
              <span className={`${badgeClass} bg-honey text-ink`}>{item.limitedStock} LIMITED STOCK!</span>
            )}
            {item.isNew && <span className={`${badgeClass} bg-white text-ink ring-1 ring-ink/20`}>New</span>}
          </div>
        ) : null}
      </div>
      <div className="p-3 sm:p-5">
        <h2 className="font-display text-lg leading-snug sm:text-xl">{item.name}</h2>
        {item.soldOut ? (
          <p className="mt-1 text-ink-soft">
            {/* ARIA prohibits aria-label on <s>, so screen readers hear the words from hidden text instead. */}
            <span className="sr-only">Was </span>
            <s>{item.priceText}</s>
            <span className="sr-only">, sold out</span>
          </p>
        ) : (
          <p className="mt-1 font-semibold">{item.priceText}</p>
        )}
      </div>
    </>
  );
  if (item.soldOut) {
    return (
      <li className="card overflow-hidden rounded-3xl opacity-60" data-testid="item-card" aria-disabled="true">
        {body}
      </li>
    );
  }
  return (
    <li className="card overflow-hidden rounded-3xl transition hover:-translate-y-1" data-testid="item-card">
      <Link to={`/product/${item.slug}`} className="block focus-visible:outline-2 focus-visible:outline-offset-2">
        {body}
      </Link>
    </li>
  );
}
