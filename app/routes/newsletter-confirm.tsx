import { data, Form, Link } from "react-router";
import { seo, siteUrlFrom } from "~/lib/seo";
import { confirmSubscription, pendingConfirmation } from "~/newsletters/subscriptions.server";
import type { Route } from "./+types/newsletter-confirm";

const PRIVATE = { "Cache-Control": "private, no-store" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const pending = await pendingConfirmation(context.db, token, context.clock.now());
  return data({ token, valid: Boolean(pending) }, { headers: PRIVATE });
}

/** A button, not the link itself, confirms: mail scanners open links, and must not subscribe anyone. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const token = typeof form.get("token") === "string" ? String(form.get("token")) : "";
  const confirmed = await confirmSubscription(context.db, context.config.sessionSecret, token, context.clock.now());
  return data({ confirmed }, { status: confirmed ? 200 : 400, headers: PRIVATE });
}

export const headers: Route.HeadersFunction = () => PRIVATE;

export default function NewsletterConfirm({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData?.confirmed) {
    return (
      <Page title="You are subscribed">
        <p role="status" className="mt-4 text-ink/85">
          Thank you. You will hear about new pieces and workshops; every email has a link to unsubscribe.
        </p>
        <p className="mt-6">
          <Link to="/styled-collections" className="btn-primary">
            See the latest pieces
          </Link>
        </p>
      </Page>
    );
  }
  if (!loaderData.valid || actionData) {
    return (
      <Page title="This link has expired">
        <p role="alert" className="mt-4 text-ink/85">
          The confirmation link is used, expired (they work for 7 days) or incomplete. Sign up again with the form at
          the foot of this page and we will send a fresh one.
        </p>
      </Page>
    );
  }
  return (
    <Page title="Confirm your subscription">
      <p className="mt-4 text-ink/85">One tap and you will hear about new pieces and workshops.</p>
      <Form method="post" className="mt-6">
        <input type="hidden" name="token" value={loaderData.token} />
        <button type="submit" className="btn-primary">
          Confirm my subscription
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

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Confirm your subscription",
    description: "Confirm that you want news of new pieces and workshops from Honey Bee Sustainable Fashion.",
    path: "/newsletter/confirm",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
