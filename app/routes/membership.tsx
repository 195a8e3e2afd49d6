import { useEffect } from "react";
import { data, Link } from "react-router";
import { shortRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import { findMembershipTier } from "~/memberships/memberships.server";
import { payfastEnabled } from "~/payments/payfast/providers.server";
import { perksOfTier } from "~/pricing/perk-view.server";
import { useSiteSettings } from "~/settings/use-site-settings";
import type { Route } from "./+types/membership";

export async function loader({ params, context }: Route.LoaderArgs) {
  const tier = await findMembershipTier(context.db, params.tier);
  if (!tier) throw data({ notFound: true }, { status: 404 });
  return {
    slug: tier.slug,
    name: tier.name,
    priceCents: tier.priceCents,
    priceText: tier.priceText,
    description: tier.description,
    features: tier.features,
    popular: tier.popular,
    perks: await perksOfTier(context.db, tier),
    // Only a card subscription renews by itself; without PayFast keys the member renews from an email.
    renewsByCard: payfastEnabled(context.config),
  };
}

export default function MembershipPage({ loaderData: tier }: Route.ComponentProps) {
  const contact = useSiteSettings();
  useEffect(() => {
    // "instant": the page-wide smooth scrolling would otherwise animate the jump.
    window.scrollTo({ top: 0, left: 0, behavior: "instant" });
  }, [tier.slug]);
  const price = tier.priceCents === null ? tier.priceText : `${shortRand(tier.priceCents)} / month`;
  const checkout =
    tier.priceCents === null
      ? null
      : `/checkout?${new URLSearchParams({ type: "membership", item: tier.slug, price: shortRand(tier.priceCents) })}`;
  const mailto = `mailto:${contact.email}?subject=${encodeURIComponent(`${tier.name} Membership Enquiry`)}`;
  return (
    <article className="container-page py-10 sm:py-14">
      <Link to="/" className="btn-outline min-h-11">
        ← Back to Home
      </Link>
      <div className="card mx-auto mt-8 max-w-2xl p-6 sm:p-10">
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm font-semibold uppercase tracking-wide text-accent">Membership</p>
          {tier.popular ? (
            <p className="rounded-full bg-honey px-3 py-1 text-xs font-bold tracking-wider text-ink">MOST POPULAR</p>
          ) : null}
        </div>
        <h1 className="mt-2 font-display text-4xl text-ink">{tier.name}</h1>
        <p className="mt-3 font-display text-3xl">{price}</p>
        <p className="mt-4 text-ink/85">{tier.description}</p>
        <h2 className="mt-6 text-lg font-semibold">What's included</h2>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {tier.features.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
        {tier.perks.length ? (
          <>
            <h2 className="mt-6 text-lg font-semibold">Member perks</h2>
            <ul className="mt-2 list-disc space-y-1 pl-5" data-testid="tier-perks">
              {tier.perks.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </>
        ) : null}
        <p className="mt-6 text-sm text-ink/80">
          {tier.renewsByCard
            ? "Membership is a recurring monthly subscription, charged to your card each month, that you can cancel any time."
            : "Membership is a recurring monthly subscription that renews by email reminder; you can cancel any time."}
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          {checkout ? (
            <Link to={checkout} className="btn-primary min-h-11">
              Choose Plan
            </Link>
          ) : (
            <a href={mailto} className="btn-primary min-h-11">
              Contact Us
            </a>
          )}
          <Link to="/events" className="btn-outline min-h-11">
            View All Plans
          </Link>
        </div>
        <p className="mt-6 text-sm text-ink/80">
          Already a member?{" "}
          <Link to="/account" className="link">
            Manage your membership
          </Link>
        </p>
      </div>
    </article>
  );
}

export const meta: Route.MetaFunction = ({ data: tier, matches, params }) =>
  seo({
    title: tier ? `${tier.name} Membership` : "Membership Not Found",
    description: tier ? tier.description : "This membership plan could not be found.",
    path: `/membership/${tier?.slug ?? params.tier}`,
    siteUrl: siteUrlFrom(matches),
    noindex: !tier,
  });

export function ErrorBoundary() {
  return (
    <section className="container-page py-16 text-center">
      <h1 className="font-display text-4xl">Membership Not Found</h1>
      <p className="mt-3 text-ink/80">We couldn't find that membership plan.</p>
      <Link to="/" className="btn-primary mt-6 min-h-11">
        Return Home
      </Link>
    </section>
  );
}
