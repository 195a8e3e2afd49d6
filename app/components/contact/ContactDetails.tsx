import { telHref, useSiteSettings } from "~/settings/use-site-settings";
import { WhatsAppLink } from "./WhatsAppLink";

/** Email, phone, location, availability and the social pages (new tab): on /contact and in the home contact section. */
export function ContactDetails({ headingId, headingLevel = 2 }: { headingId: string; headingLevel?: 2 | 3 }) {
  const contact = useSiteSettings();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  // A social page the owner cleared in the settings is not offered.
  const socials = [
    { name: "Facebook", href: contact.social.facebook },
    { name: "Instagram", href: contact.social.instagram },
    { name: "LinkedIn", href: contact.social.linkedin },
  ].filter((s) => s.href);
  return (
    <aside className="card space-y-5 self-start p-6 sm:p-8" aria-labelledby={headingId}>
      <Heading id={headingId} className="font-display text-2xl">
        Contact Information
      </Heading>
      <dl className="space-y-4">
        <div>
          <dt className="text-sm font-semibold tracking-wide text-ink-soft uppercase">Email</dt>
          <dd>
            <a className="link inline-block py-1 break-all" href={`mailto:${contact.email}`}>
              {contact.email}
            </a>
          </dd>
        </div>
        <div>
          <dt className="text-sm font-semibold tracking-wide text-ink-soft uppercase">Phone</dt>
          <dd>
            <a className="link inline-block py-1" href={telHref(contact.phone)}>
              {contact.phone}
            </a>
          </dd>
          {contact.whatsapp ? (
            <dd>
              <WhatsAppLink />
            </dd>
          ) : null}
        </div>
        <div>
          <dt className="text-sm font-semibold tracking-wide text-ink-soft uppercase">Location</dt>
          <dd className="break-words">{contact.location}</dd>
        </div>
        <div>
          <dt className="text-sm font-semibold tracking-wide text-ink-soft uppercase">Availability</dt>
          <dd className="break-words">{contact.availability}</dd>
        </div>
      </dl>
      {socials.length ? (
        <ul className="flex flex-wrap gap-3" aria-label="Social media">
          {socials.map((s) => (
            <li key={s.name}>
              <a className="btn-outline" href={s.href} target="_blank" rel="noopener noreferrer">
                {s.name}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </aside>
  );
}
