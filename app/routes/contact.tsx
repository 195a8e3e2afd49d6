import { data } from "react-router";
import { ContactForm } from "~/components/contact/ContactForm";
import { submitContact } from "~/contact/contact-action.server";
import { site } from "~/content/site";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/contact";

export function loader({ request }: Route.LoaderArgs) {
  const subject = new URL(request.url).searchParams.get("subject") ?? "";
  return { subject: subject.slice(0, 200) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const result = await submitContact(request, context);
  return data(result, { status: result.ok ? 200 : result.toast.title === "Too many messages" ? 429 : 400 });
}

const socials = [
  { name: "Facebook", href: site.social.facebook },
  { name: "Instagram", href: site.social.instagram },
  { name: "LinkedIn", href: site.social.linkedin },
] as const;

export default function ContactPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="container-page py-12 sm:py-16">
      <h1 className="font-display text-4xl text-ink sm:text-5xl">Get in Touch</h1>
      <p className="mt-3 max-w-2xl text-ink/80">
        Questions about a piece, a styling session or an event? Send us a message and we will reply soon.
      </p>
      <div className="mt-10 grid gap-10 lg:grid-cols-[1fr_1.4fr]">
        <aside className="card space-y-5 p-6" aria-labelledby="contact-info-heading">
          <h2 id="contact-info-heading" className="font-display text-2xl">Contact Information</h2>
          <dl className="space-y-4">
            <div>
              <dt className="text-sm font-semibold uppercase tracking-wide text-ink/70">Email</dt>
              <dd><a className="link" href={`mailto:${site.email}`}>{site.email}</a></dd>
            </div>
            <div>
              <dt className="text-sm font-semibold uppercase tracking-wide text-ink/70">Phone</dt>
              <dd><a className="link" href={`tel:${site.phone.replace(/\s/g, "")}`}>{site.phone}</a></dd>
            </div>
            <div>
              <dt className="text-sm font-semibold uppercase tracking-wide text-ink/70">Location</dt>
              <dd>{site.location}</dd>
            </div>
            <div>
              <dt className="text-sm font-semibold uppercase tracking-wide text-ink/70">Availability</dt>
              <dd>{site.availability}</dd>
            </div>
          </dl>
          <ul className="flex flex-wrap gap-3" aria-label="Social media">
            {socials.map((s) => (
              <li key={s.name}>
                <a className="btn-outline min-h-11" href={s.href} target="_blank" rel="noopener noreferrer">
                  {s.name}<span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        </aside>
        <div className="card p-6">
          <h2 className="mb-4 font-display text-2xl">Send a Message</h2>
          <ContactForm defaultSubject={loaderData.subject} result={actionData ?? null} />
        </div>
      </div>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Contact",
    description: `Contact ${site.name}: questions about pieces, styling consultations, events and memberships.`,
    path: "/contact",
    siteUrl: siteUrlFrom(matches),
  });
