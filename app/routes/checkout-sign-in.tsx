import { data, Link, useNavigation } from "react-router";
import { assertSameOrigin } from "~/auth/cookies.server";
import {
  AccountCard,
  AccountProblem,
  Notice,
  SignInLinkForm,
  LinkRequestAnswer,
} from "~/components/account/account-ui";
import { seo, siteUrlFrom } from "~/lib/seo";
import { readAccountForm, UNREADABLE, type AccountActionResult } from "~/memberships/account-actions.server";
import { CHECKOUT_SIGN_IN_PATH, checkoutReturnPath, NO_CHECKOUT_TO_RETURN_TO } from "~/memberships/checkout-sign-in";
import { askForCheckoutSignInLink } from "~/memberships/checkout-sign-in.server";
import type { Route } from "./+types/checkout-sign-in";

const PRIVATE = { "Cache-Control": "private, no-store" };

/**
 * "Member? Sign in for your price" (issue 40): a checkout links here with its own address; the member's
 * emailed link signs her in and returns her to that checkout, her bag untouched (it has its own cookie).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const returnTo = checkoutReturnPath(new URL(request.url).searchParams.get("return"));
  return data({ returnTo }, { headers: PRIVATE, status: returnTo ? 200 : 400 });
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request, context);
  const form = await readAccountForm(request);
  if (!form) {
    const result: AccountActionResult = { intent: "request-link", ok: false, message: UNREADABLE };
    return data({ returnTo: null, result }, { status: 400, headers: PRIVATE });
  }
  const { status, result, returnTo } = await askForCheckoutSignInLink(context, form);
  return data({ returnTo, result }, { status, headers: PRIVATE });
}

export const headers: Route.HeadersFunction = () => PRIVATE;

export default function CheckoutSignIn({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  const returnTo = actionData?.returnTo ?? loaderData.returnTo;
  const asked = actionData?.result;
  if (!returnTo) {
    return (
      <AccountCard title="Sign in for your price">
        <div className="mt-6">
          <Notice tone="problem">{asked?.message ?? NO_CHECKOUT_TO_RETURN_TO}</Notice>
        </div>
        <BackLinks returnTo="/bag" label="Back to your bag" />
      </AccountCard>
    );
  }
  return (
    <AccountCard title="Member? Sign in for your price">
      <p className="mt-3 text-ink/85">
        Members get their plan&apos;s perks at checkout. Type the email address you joined with and we will email you a
        link; it signs you in and brings you back to your checkout, priced for your plan. Your bag stays as you left it.
      </p>
      <LinkRequestAnswer asked={asked}>
        <SignInLinkForm
          action={CHECKOUT_SIGN_IN_PATH}
          returnTo={returnTo}
          email={asked && !asked.ok ? asked.values?.email : undefined}
          error={asked?.ok === false ? asked.errors?.email : undefined}
          sending={sending}
        />
      </LinkRequestAnswer>
      <BackLinks returnTo={returnTo} label="Back to your checkout" />
    </AccountCard>
  );
}

function BackLinks({ returnTo, label }: { returnTo: string; label: string }) {
  return (
    <p className="mt-8 text-sm">
      <Link to={returnTo} className="link">
        {label}
      </Link>
    </p>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Sign In For Your Price",
    description: "Members sign in by email link to see their plan's price at checkout.",
    path: CHECKOUT_SIGN_IN_PATH,
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });

export function ErrorBoundary() {
  return (
    <AccountProblem
      title="Sign in for your price"
      text="We could not send a sign-in link just now. Please try again in a moment."
      linkLabel="Back to your membership"
    />
  );
}
