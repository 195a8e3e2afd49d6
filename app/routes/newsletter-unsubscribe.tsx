import { data, Form, Link } from "react-router";
import { seo, siteUrlFrom } from "~/lib/seo";
import { NEWS_CONSENT_WORDING } from "~/newsletters/sign-up-words";
import { resubscribeByLink, unsubscribeByLink, unsubscribePageState } from "~/newsletters/unsubscribe.server";
import type { Route } from "./+types/newsletter-unsubscribe";

const PRIVATE = { "Cache-Control": "private, no-store" };

export async function loader({ params, context }: Route.LoaderArgs) {
  const state = await unsubscribePageState(context.db, context.config.sessionSecret, params.token);
  return data(state, { status: state.valid ? 200 : 404, headers: PRIVATE });
}

/**
 * No session and no same-origin check: a mail app's one-click POST (RFC 8058, body
 * `List-Unsubscribe=One-Click`) comes from its own servers; the signed link is the proof.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const page = new URL(request.url).pathname;
  const now = context.clock.now();
  const secret = context.config.sessionSecret;
  if (form.get("intent") === "subscribe-again") {
    const done = await resubscribeByLink(context.db, secret, params.token, page, now);
    return data({ done: done ? ("subscribed" as const) : null }, { status: done ? 200 : 404, headers: PRIVATE });
  }
  const how = form.get("List-Unsubscribe") === "One-Click" ? "one-click" : "page";
  const done = await unsubscribeByLink(context.db, secret, params.token, how, page, now);
  return data({ done: done ? ("unsubscribed" as const) : null }, { status: done ? 200 : 404, headers: PRIVATE });
}

export const headers: Route.HeadersFunction = () => PRIVATE;

export default function NewsletterUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.valid) {
    return (
      <Page title="This link does not work">
        <p className="mt-4 text-ink/85">
          The unsubscribe link is incomplete. Please use the whole link from the email, or write to us from the{" "}
          <Link to="/contact" className="link">
            contact page
          </Link>{" "}
          and we will take you off the list.
        </p>
      </Page>
    );
  }
  const unsubscribed = actionData?.done ? actionData.done === "unsubscribed" : loaderData.unsubscribed;
  if (unsubscribed) {
    return (
      <Page title="You are unsubscribed">
        <p role="status" className="mt-4 text-ink/85">
          We will not send you our news any more. Changed your mind? Come back with one tap.
        </p>
        <Form method="post" className="mt-6">
          <button type="submit" name="intent" value="subscribe-again" className="btn-primary">
            Subscribe again
          </button>
        </Form>
        <p className="mt-3 text-sm text-ink/80">{NEWS_CONSENT_WORDING}.</p>
      </Page>
    );
  }
  return (
    <Page title={actionData?.done === "subscribed" ? "Welcome back" : "Unsubscribe from our news"}>
      <p role="status" className="mt-4 text-ink/85">
        {actionData?.done === "subscribed"
          ? "You are subscribed again: you will hear about new pieces and workshops."
          : "One tap and we stop sending you news of new pieces and workshops."}
      </p>
      <Form method="post" className="mt-6">
        <button type="submit" name="intent" value="unsubscribe" className="btn-primary">
          Unsubscribe
        </button>
      </Form>
    </Page>
  );
}

function Page({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="container-page max-w-2xl py-12 sm:py-16">
      <h1 className="text-4xl font-semibold">{title}</h1>
      {children}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches, params }) =>
  seo({
    title: "Unsubscribe",
    description: "Stop or restart the news of new pieces and workshops from Honey Bee Sustainable Fashion.",
    path: `/newsletter/unsubscribe/${params.token}`,
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
