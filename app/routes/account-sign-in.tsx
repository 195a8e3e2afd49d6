import { data, Form, Link, redirect, useNavigation } from "react-router";
import { assertSameOrigin } from "~/auth/cookies.server";
import { AccountCard, AccountProblem, Notice, SignInLinkForm } from "~/components/account/account-ui";
import { seo, siteUrlFrom } from "~/lib/seo";
import { safeReturnPath } from "~/lib/return-path";
import { readAccountForm } from "~/memberships/account-actions.server";
import { signInTokenState, signInWithToken, TOKEN_PROBLEMS } from "~/memberships/sign-in-link.server";
import type { Route } from "./+types/account-sign-in";

/*
 * The token in this page's address must not leave the site in a Referer; "same-origin" keeps it here and,
 * unlike "no-referrer", lets the browser send the page's Origin with the Sign in form, so the POST passes
 * the same-origin checks without JavaScript (with no-referrer Chromium sends "Origin: null"; decision 136).
 */
const PRIVATE = { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };

/**
 * The page an emailed link opens. A GET only looks at the token: mail scanners that fetch every link
 * must not use up the one-time link, so signing in takes the POST of the button below (decision 087).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const token = query.get("token") ?? "";
  // Where the link was asked from (a checkout), checked again when the button is pressed.
  const next = safeReturnPath(query.get("next"));
  const state = await signInTokenState(context.db, token, context.clock.now());
  return data(
    state === "valid"
      ? { token, problem: null, ...(next ? { next } : {}) }
      : { token: null, problem: TOKEN_PROBLEMS[state] },
    { headers: PRIVATE },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request, context);
  const form = await readAccountForm(request);
  const posted = form?.get("token");
  const token = typeof posted === "string" && posted ? posted : (new URL(request.url).searchParams.get("token") ?? "");
  const result = await signInWithToken(context, token);
  // Only a path on this site: a link whose `next` was tampered with still signs in, to /account.
  const next = safeReturnPath(form?.get("next")) ?? "/account";
  if (result.ok) throw redirect(next, { headers: { ...PRIVATE, "Set-Cookie": result.cookie } });
  return data({ problem: TOKEN_PROBLEMS[result.state] }, { status: 410, headers: PRIVATE });
}

export const headers: Route.HeadersFunction = () => PRIVATE;

export default function AccountSignIn({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const problem = actionData?.problem ?? loaderData.problem;
  if (problem || !loaderData.token) {
    return (
      <AccountCard title="Sign in">
        <div className="mt-6">
          <Notice tone="problem">{problem}</Notice>
        </div>
        <SignInLinkForm />
        <p className="mt-8 text-sm">
          <Link to="/account" className="link">
            Back to your membership
          </Link>
        </p>
      </AccountCard>
    );
  }
  return (
    <AccountCard title="Sign in">
      <p className="mt-3 text-ink/85">Press the button to sign in to your membership on this device.</p>
      <Form method="post" className="mt-6">
        <input type="hidden" name="token" value={loaderData.token} />
        {loaderData.next ? <input type="hidden" name="next" value={loaderData.next} /> : null}
        <button type="submit" className="btn-primary" disabled={navigation.state !== "idle"}>
          {navigation.state !== "idle" ? "Signing in..." : "Sign in"}
        </button>
      </Form>
    </AccountCard>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Sign In",
    description: "Sign in to manage your Honey Bee membership.",
    path: "/account/sign-in",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });

export function ErrorBoundary() {
  return (
    <AccountProblem
      title="Sign in"
      text="We could not sign you in just now. Please try again in a moment."
      linkLabel="Back to your membership"
    />
  );
}
