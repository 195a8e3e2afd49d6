import { Link } from "react-router";

/**
 * "Member? Sign in for your price" (issue 40), shown to a visitor who is not signed in as a member when a
 * perk could lower what she is buying. A plain link, so it works before JavaScript loads.
 */
export function MemberSignInOffer({ href }: { href: string | null }) {
  if (!href) return null;
  return (
    <p className="mb-5 rounded-xl border border-honey-dark/50 bg-cream px-4 py-3 text-ink">
      <Link to={href} className="link font-medium">
        Member? Sign in for your price
      </Link>
      <span className="mt-1 block text-sm text-ink/80">
        We email you a link that signs you in and brings you back here.
      </span>
    </p>
  );
}
