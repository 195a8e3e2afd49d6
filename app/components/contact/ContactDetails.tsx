import { site } from "~/content/site";

const socials = [
  { name: "Facebook", href: site.social.facebook },
  { name: "Instagram", href: site.social.instagram },
  { name: "LinkedIn", href: site.social.linkedin },
] as const;

/** Email, phone, location, availability and the social pages (new tab): on /contact and in the home contact section. */
export function ContactDetails({ headingId, headingLevel = 2 }: { headingId: string; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <aside className="card space-y-5 self-start p-6 sm:p-8" aria-labelledby={headingId}>
      <Heading id={headingId} className="font-display text-2xl">
        Contact Information
      </Heading>
      <dl className="space-y-4">
        <div>
          <dt className="text-sm font-semibold tracking-wide text-ink-soft uppercase">Email</dt>
          <dd>
            <a className="link inline-block py-1 break-all" href={`mailto:${site.email}`}>
              {site.email}
            </a>
          </dd>
        </div>
        <div>
          <dt className="text-sm font-semibold tracking-wide text-ink-soft uppercase">Phone</dt>
          <dd>
            <a className="link inline-block py-1" href={`tel:${site.phone.replace(/\s/g, "")}`}>
              {site.phone}
            </a>
          </dd>
        </div>
        <div>
          <dt className="text-sm font-semibold tracking-wide text-ink-soft uppercase">Location</dt>
          <dd>{site.location}</dd>
        </div>
        <div>
          <dt className="text-sm font-semibold tracking-wide text-ink-soft uppercase">Availability</dt>
          <dd>{site.availability}</dd>
        </div>
      </dl>
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
    </aside>
  );
}
