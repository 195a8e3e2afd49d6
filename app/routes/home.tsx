import { Link } from "react-router";
import { loadHome } from "~/home/home.server";
import { ContactDetails } from "~/components/contact/ContactDetails";
import { ContactForm } from "~/components/contact/ContactForm";
import { AboutImages } from "~/components/home/AboutImages";
import { CommunityVideo } from "~/components/home/CommunityVideo";
import { SlotImage } from "~/components/ui/SlotImage";
import { site } from "~/content/site";
import { seo, siteUrlFrom } from "~/lib/seo";
import { siteSettingsFrom } from "~/settings/use-site-settings";
import type { Route } from "./+types/home";
import { skipAfterContactSend } from "~/contact/revalidation";
import { halfOfPageFrom } from "~/components/ui/Picture";
import { DemoBadge } from "~/components/events/DemoBadge";

export async function loader({ context }: Route.LoaderArgs) {
  return loadHome(context.db, context.clock.now());
}

export const shouldRevalidate = skipAfterContactSend;

function SectionHeading({ eyebrow, title, intro }: { eyebrow: string; title: string; intro?: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold tracking-widest text-accent uppercase">{eyebrow}</p>
      <h2 className="font-display mt-2 text-3xl sm:text-4xl">{title}</h2>
      {intro && <p className="mt-4 text-ink-soft">{intro}</p>}
    </div>
  );
}

const COLLECTION_CARDS = [
  {
    title: "Styled Collections and Solutions",
    text: "Handcrafted accessories, upcycled clothing and wardrobe solutions.",
    href: "/styled-collections",
    image: "/images/home/styled-collections.svg",
  },
  {
    title: "Consultation Services",
    text: "Sustainability education, fashion consultation and career coaching.",
    href: "/consultation-services",
    image: "/images/home/consultation-services.svg",
  },
];

// The spec's hero text, shown as a headline (its first sentence) and the sentence that follows.
const [heroHeadline, ...heroRest] = site.heroText.split(/(?<=\.)\s+/);
const heroLead = heroRest.join(" ");

export default function Home({ loaderData }: Route.ComponentProps) {
  const { events, tiers, posts } = loaderData;
  return (
    <>
      <section id="hero" className="bg-gradient-to-b from-cream to-cream-deep">
        <div className="container-page grid items-center gap-8 py-10 sm:py-16 md:grid-cols-2">
          <div>
            <p className="text-sm font-semibold tracking-widest text-accent uppercase">{site.name}</p>
            <h1 className="font-display mt-3 text-4xl leading-[1.1] sm:text-5xl xl:text-6xl">{heroHeadline}</h1>
            <p className="mt-5 max-w-xl text-lg leading-relaxed text-ink-soft sm:text-xl">{heroLead}</p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to="/styled-collections" className="btn-primary">
                Shop Sustainable Fashion
              </Link>
              <Link to="/events" className="btn-dark">
                Explore Events
              </Link>
              <Link to="/contact" className="btn-outline">
                Contact Us
              </Link>
            </div>
          </div>
          <SlotImage
            src="/images/hero/hero.svg"
            alt="Honey Bee models wearing upcycled, handmade fashion"
            slot="hero"
            sizes={halfOfPageFrom("md")}
            priority
            className="h-auto w-full rounded-3xl shadow-md"
          />
        </div>
      </section>

      <section id="products" className="render-when-near container-page scroll-mt-20 py-14 sm:py-20">
        <SectionHeading eyebrow="Shop" title="Sustainable Fashion Reimagined" />
        <div className="mt-10 grid gap-6 sm:grid-cols-2">
          {COLLECTION_CARDS.map((card) => (
            <Link
              key={card.href}
              to={card.href}
              className="card group block overflow-hidden transition hover:-translate-y-1"
            >
              <SlotImage
                src={card.image}
                alt=""
                slot="wide"
                sizes={halfOfPageFrom("sm")}
                className="h-auto w-full object-cover transition duration-500 group-hover:scale-[1.02]"
              />
              <div className="p-6">
                <h3 className="font-display text-2xl">{card.title}</h3>
                <p className="mt-2 text-ink-soft">{card.text}</p>
              </div>
            </Link>
          ))}
        </div>
        <div className="mt-10 text-center">
          <Link to="/styled-collections" className="btn-primary">
            Explore Our Collections
          </Link>
        </div>
      </section>

      <section id="events" className="render-when-near scroll-mt-20 bg-cream-deep py-14 sm:py-20">
        <div className="container-page">
          <SectionHeading eyebrow="Gather with us" title="Events and Workshops" />
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {events.map((event) => (
              <li key={event.id} className="card flex flex-col overflow-hidden">
                {event.image && (
                  <SlotImage
                    src={event.image}
                    alt=""
                    slot="wide"
                    sizes="(min-width: 1152px) 270px, (min-width: 1024px) 25vw, (min-width: 640px) 50vw, 100vw"
                    className="h-auto w-full object-cover"
                  />
                )}
                <div className="flex flex-1 flex-col p-5">
                  <h3 className="font-display text-xl">
                    {event.title}
                    {event.demo ? <DemoBadge /> : null}
                  </h3>
                  <p className="mt-1 text-sm text-ink-soft">{event.dates}</p>
                  <p className="mt-2 text-sm">{event.focus}</p>
                  <p className="mt-2 mb-5 font-semibold">{event.priceText}</p>
                  <Link to={event.action.href} className="btn-primary mt-auto self-start">
                    {/* The title in text (not aria-label) so that every reader and crawler gets a descriptive link. */}
                    {event.action.label}
                    <span className="sr-only">: {event.title}</span>
                  </Link>
                </div>
              </li>
            ))}
          </ul>
          <div className="mt-10 text-center">
            <Link to="/events-gallery" className="btn-outline">
              View Events Gallery
            </Link>
          </div>
        </div>
      </section>

      <section className="render-when-near container-page py-14 sm:py-20" aria-labelledby="membership-heading">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-widest text-accent uppercase">Membership</p>
          <h2 id="membership-heading" className="font-display mt-2 text-3xl sm:text-4xl">
            Membership Tiers
          </h2>
        </div>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {tiers.map((tier) => (
            <li key={tier.slug} className={`card flex flex-col p-6 ${tier.popular ? "ring-2 ring-honey" : ""}`}>
              {tier.popular && (
                <p className="mb-2 self-start rounded-full bg-honey px-3 py-1 text-xs font-bold tracking-wider">
                  MOST POPULAR
                </p>
              )}
              <h3 className="font-display text-2xl">{tier.name}</h3>
              <p className="mt-1 text-xl font-semibold">{tier.priceText}</p>
              <p className="mt-3 text-ink-soft">{tier.description}</p>
              <ul className="mt-4 mb-6 space-y-1 text-sm">
                {tier.features.map((f) => (
                  <li key={f}>✓ {f}</li>
                ))}
              </ul>
              <Link
                to={`/membership/${tier.slug}`}
                className="btn-dark mt-auto self-start"
                aria-label={`Choose Plan: ${tier.name}`}
              >
                Choose Plan
              </Link>
            </li>
          ))}
        </ul>
        <p className="mt-8 text-center text-ink-soft">
          Already a member?{" "}
          <Link to="/account" className="link">
            Manage your membership
          </Link>
        </p>
      </section>

      <section id="community" className="render-when-near scroll-mt-20 bg-ink py-14 text-cream sm:py-20">
        <div className="container-page grid items-center gap-10 md:grid-cols-2">
          <div>
            <p className="text-sm font-semibold tracking-widest text-honey uppercase">Community</p>
            <h2 className="font-display mt-2 text-3xl sm:text-4xl">Join Our Community</h2>
            <p className="mt-4 text-cream/85">
              Monthly posts, art-healing sessions and a sisterhood of women who style, heal and grow together.
            </p>
            <a href={site.membershipPlatformUrl} target="_blank" rel="noopener noreferrer" className="btn-primary mt-8">
              Become a Member
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </div>
          <CommunityVideo />
        </div>
      </section>

      <section id="about" className="render-when-near scroll-mt-20 pt-14 sm:pt-20">
        <div className="container-page pb-10">
          <SectionHeading
            eyebrow="Our story"
            title="About Honey Bee"
            intro="We rescue fabrics and forgotten garments and turn them into pieces you will love for years."
          />
        </div>
        <AboutImages />
      </section>

      <section id="blog" className="render-when-near container-page scroll-mt-20 py-14 sm:py-20">
        <SectionHeading eyebrow="Journal" title="From Our Blog" />
        <ul className="mt-10 grid gap-6 md:grid-cols-2">
          {posts.map((post) => (
            <li key={post.slug} className="card overflow-hidden">
              {post.image && (
                <SlotImage
                  src={post.image}
                  alt=""
                  slot="wide"
                  sizes={halfOfPageFrom("md")}
                  className="h-auto w-full object-cover"
                />
              )}
              <div className="p-6">
                <p className="text-xs font-semibold tracking-wider text-accent uppercase">{post.category}</p>
                <h3 className="font-display mt-2 text-2xl">
                  <Link to={`/blog/${post.slug}`} className="hover:underline">
                    {post.title}
                  </Link>
                </h3>
                <p className="mt-1 text-sm text-ink-soft">
                  {post.author} · {post.publishedOn}
                </p>
                <p className="mt-3 text-ink-soft">{post.excerpt}</p>
              </div>
            </li>
          ))}
        </ul>
        <div className="mt-10 text-center">
          <Link to="/blog" className="btn-primary">
            View All Posts
          </Link>
        </div>
      </section>

      <section id="contact" className="render-when-near scroll-mt-20 bg-cream-deep py-14 sm:py-20">
        <div className="container-page">
          <SectionHeading
            eyebrow="Say hello"
            title="Get in Touch"
            intro="Questions about a piece, a styling session or an event? We would love to hear from you."
          />
          <div className="mt-10 grid gap-8 lg:grid-cols-[1fr_1.4fr]">
            <ContactDetails headingId="home-contact-info-heading" headingLevel={3} />
            <div className="card p-6 sm:p-8">
              <h3 className="mb-4 font-display text-2xl">Send a Message</h3>
              <ContactForm />
            </div>
          </div>
        </div>
      </section>
    </>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  const contact = siteSettingsFrom(matches);
  return seo({
    title: site.name,
    description: site.heroText,
    path: "/",
    siteUrl: siteUrlFrom(matches),
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "Organization",
        name: site.name,
        email: contact.email,
        telephone: contact.phone,
        url: siteUrlFrom(matches),
        sameAs: Object.values(contact.social).filter(Boolean),
      },
    ],
  });
}
