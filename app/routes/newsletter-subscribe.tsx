import { data, Link } from "react-router";
import { seo, siteUrlFrom } from "~/lib/seo";
import { submitSignUp } from "~/newsletters/sign-up-action.server";
import type { Route } from "./+types/newsletter-subscribe";

export async function action({ request, context }: Route.ActionArgs) {
  const { status, result } = await submitSignUp(request, context);
  return data(result, { status });
}

/** Where the sign-up lands without JavaScript: its answer, and the footer's form to try again. */
export default function NewsletterSubscribe({ actionData }: Route.ComponentProps) {
  return (
    <section className="container-page max-w-2xl py-12 sm:py-16">
      <h1 className="text-4xl font-semibold">Our news</h1>
      {actionData?.ok ? (
        <>
          <p role="status" className="mt-6 rounded-xl border border-honey-dark/50 bg-cream px-4 py-3 text-ink">
            {actionData.message}
          </p>
          <p className="mt-6">
            <Link to="/" className="link">
              Back to the shop
            </Link>
          </p>
        </>
      ) : (
        <>
          <p className="mt-3 text-ink/85">New pieces and workshops, a few times a month. Unsubscribe any time.</p>
          {actionData && !actionData.ok ? (
            <ul role="alert" className="mt-6 rounded-xl border border-red-800/40 bg-red-50 px-4 py-3 text-red-900">
              {[...new Set(Object.values(actionData.fieldErrors))].map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          ) : null}
          <p className="mt-6">Please try again with the sign-up form at the foot of this page.</p>
        </>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Our news",
    description: "Sign up for news of new pieces and workshops from Honey Bee Sustainable Fashion.",
    path: "/newsletter/subscribe",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
