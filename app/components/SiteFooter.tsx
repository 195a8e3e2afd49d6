import { Link } from "react-router";
import { site } from "~/content/site";
import { WhatsAppLink } from "~/components/contact/WhatsAppLink";
import { NewsSignUp } from "~/components/newsletters/NewsSignUp";
import { telHref, useSiteSettings } from "~/settings/use-site-settings";

const footerLinks = [
  { to: "/styled-collections", label: "Products" },
  { to: "/events", label: "Events" },
  { to: "/about", label: "About" },
  { to: "/contact", label: "Contact" },
] as const;

export function SiteFooter() {
  const contact = useSiteSettings();
  return (
    <footer className="render-when-near mt-16 bg-ink text-cream">
      <div className="container-page grid gap-8 py-12 sm:grid-cols-3">
        <div>
          <p className="font-display text-xl font-semibold">{site.name}</p>
          <p className="mt-2 text-sm text-cream/80">{site.tagline}</p>
        </div>
        <nav aria-label="Footer">
          <h2 className="font-sans text-sm font-bold uppercase tracking-wider text-honey">Quick links</h2>
          <ul className="mt-3 space-y-1">
            {footerLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="inline-block py-1.5 hover:text-honey hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="font-sans text-sm font-bold uppercase tracking-wider text-honey">Get in touch</h2>
          <p className="mt-3">
            <a
              href={`mailto:${contact.email}`}
              className="inline-block py-1.5 break-all underline underline-offset-4 hover:text-honey"
            >
              {contact.email}
            </a>
          </p>
          <p>
            <a
              href={telHref(contact.phone)}
              className="inline-block py-1.5 underline underline-offset-4 hover:text-honey"
            >
              {contact.phone}
            </a>
          </p>
          <WhatsAppLink className="inline-block py-1.5 underline underline-offset-4 hover:text-honey" />
          <p className="mt-1 text-sm text-cream/80">{contact.availability}</p>
        </div>
      </div>
      <section aria-labelledby="footer-news-heading" className="container-page border-t border-cream/15 py-8">
        <h2 id="footer-news-heading" className="font-sans text-sm font-bold uppercase tracking-wider text-honey">
          Our news
        </h2>
        <div className="mt-3">
          <NewsSignUp form="footer" tone="dark" labelledBy="footer-news-heading" />
        </div>
      </section>
      <div className="border-t border-cream/15">
        <div className="container-page flex flex-wrap items-center justify-between gap-x-6 gap-y-1 py-4 text-sm text-cream/80">
          <p>
            © {site.copyrightYear} {site.name}. All rights reserved.
          </p>
          <p className="flex gap-4">
            <Link to="/privacy" className="inline-block py-1.5 underline underline-offset-4 hover:text-honey">
              Privacy
            </Link>
            <Link to="/your-data" className="inline-block py-1.5 underline underline-offset-4 hover:text-honey">
              Your data
            </Link>
          </p>
        </div>
      </div>
    </footer>
  );
}
