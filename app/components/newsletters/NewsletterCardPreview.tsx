import type { NewsletterCard } from "~/db/schema";
import { hasRenditions, renditionUrl } from "~/lib/image-renditions";

/** The shop card as the email shows it, in the owner's phone-width preview. */
export function NewsletterCardPreview({ card }: { card: NewsletterCard }) {
  return (
    <div className="mt-3 rounded-xl border border-ink/20 p-3">
      {card.image ? (
        <img
          src={hasRenditions(card.image) ? renditionUrl(card.image, 800, "webp") : card.image}
          alt={card.imageAlt}
          className="mb-3 w-full rounded-lg"
        />
      ) : null}
      <p className="font-semibold break-words">{card.name}</p>
      <p className="mt-1">{card.price}</p>
      <a href={card.path} className="mt-2 inline-block font-semibold underline">
        {card.kind === "product" ? "See it in the shop" : "See the workshop"}
      </a>
    </div>
  );
}
