import { useSiteSettings, whatsAppHref } from "~/settings/use-site-settings";

/**
 * "WhatsApp +27 72 481 3396": a click-to-chat link (https://wa.me/27724813396) to the number the owner
 * set in Settings, in a new tab; nothing at all until she sets one.
 */
export function WhatsAppLink({
  className = "link inline-block py-1",
  lead,
  paragraphClassName,
}: {
  className?: string;
  lead?: string;
  paragraphClassName?: string;
}) {
  const { whatsapp } = useSiteSettings();
  const href = whatsapp ? whatsAppHref(whatsapp) : null;
  if (!href) return null;
  return (
    <p data-testid="whatsapp" className={paragraphClassName}>
      {lead ? `${lead} ` : null}
      <a className={className} href={href} target="_blank" rel="noopener noreferrer">
        WhatsApp {whatsapp}
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
    </p>
  );
}
