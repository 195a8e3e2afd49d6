import { data, Link, redirect, useNavigation } from "react-router";
import { textFields } from "~/lib/form";
import { assertSameOrigin } from "~/auth/cookies.server";
import { AccountCard, AccountProblem, SignInLinkForm, LinkRequestAnswer } from "~/components/account/account-ui";
import { seo, siteUrlFrom } from "~/lib/seo";
import {
  askForSignInLink,
  memberAction,
  readAccountForm,
  UNREADABLE,
  type AccountActionResult,
} from "~/memberships/account-actions.server";
import { accountView } from "~/memberships/account.server";
import { destroyMemberSession, signedInMemberId } from "~/memberships/member-session.server";
import { startRenewalCheckout } from "~/orders/renewal-checkout.server";
import { perksOfTierSlug } from "~/pricing/perk-view.server";
import { memberPerksInWords } from "~/pricing/perk-words";
import { saveAccountNews } from "~/newsletters/account-news.server";
import { newsStatus } from "~/newsletters/subscriptions.server";
import { MemberPage } from "~/components/member-page/MemberPage";
import { accountOrders } from "~/orders/account-orders.server";
import type { Route } from "./+types/account";

/** One person's page: never stored by a browser or a shared cache (server/app.ts says so too). */
const PRIVATE = { "Cache-Control": "private, no-store" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const memberId = await signedInMemberId(request, context);
  const view = memberId === undefined ? undefined : await accountView(context.db, memberId, context.clock.now());
  if (!view) {
    const headers = new Headers(PRIVATE);
    // A session whose member is gone is ended, so the page does not keep looking it up.
    if (memberId !== undefined) headers.append("Set-Cookie", await destroyMemberSession(request, context));
    return data({ signedIn: false as const }, { headers });
  }
  const [news, perks, shopOrders] = await Promise.all([
    newsStatus(context.db, view.email),
    perksOfTierSlug(context.db, view.tierSlug),
    accountOrders(context.db, view.email),
  ]);
  return data(
    { signedIn: true as const, account: view, news, perks: memberPerksInWords(view.status, perks), shopOrders },
    { headers: PRIVATE },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request, context);
  const form = await readAccountForm(request);
  if (!form)
    return data<AccountActionResult>({ intent: "", ok: false, message: UNREADABLE }, { status: 400, headers: PRIVATE });
  if (textFields(form, ["intent"]).intent === "request-link") {
    const { status, result } = await askForSignInLink(context, form);
    return data(result, { status, headers: PRIVATE });
  }
  const memberId = await signedInMemberId(request, context);
  if (memberId === undefined) throw redirect("/account");
  if (form.get("intent") === "news") {
    const { status, result } = await saveAccountNews(context, memberId, form);
    return data(result, { status, headers: PRIVATE });
  }
  if (form.get("intent") === "renew") {
    const started = await startRenewalCheckout(context, memberId);
    if (started.ok) throw redirect(started.redirectUrl, { headers: { "Set-Cookie": started.buyerCookie } });
    return data<AccountActionResult>(
      { intent: "renew", ok: false, message: started.reason },
      { status: 409, headers: PRIVATE },
    );
  }
  const { status, result } = await memberAction(context, memberId, form);
  return data(result, { status, headers: PRIVATE });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const headers = new Headers(PRIVATE);
  for (const cookie of [...actionHeaders.getSetCookie(), ...loaderHeaders.getSetCookie()])
    headers.append("Set-Cookie", cookie);
  return headers;
};

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "request-link";
  if (!loaderData.signedIn) {
    const asked = actionData?.intent === "request-link" ? actionData : undefined;
    return (
      <AccountCard title="Your membership">
        <p className="mt-3 text-ink/85">
          Members manage their membership here: renew, change plan, cancel, and see past payments. We email you a link
          to sign in; there is no password to remember.
        </p>
        <LinkRequestAnswer asked={asked}>
          <SignInLinkForm
            email={asked && !asked.ok ? asked.values?.email : undefined}
            error={asked?.ok === false ? asked.errors?.email : undefined}
            sending={sending}
          />
        </LinkRequestAnswer>
        <p className="mt-8 text-sm text-ink/80">
          Not a member yet?{" "}
          <Link to="/#membership-heading" className="link">
            See the membership plans
          </Link>
          .
        </p>
      </AccountCard>
    );
  }
  return (
    <MemberPage
      account={loaderData.account}
      news={loaderData.news}
      perks={loaderData.perks}
      result={actionData}
      shopOrders={loaderData.shopOrders}
    />
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Your Membership",
    description: "Manage your Honey Bee membership: renew, change plan, cancel, and see past payments.",
    path: "/account",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });

export function ErrorBoundary() {
  return (
    <AccountProblem
      title="Something went wrong"
      text="We could not show your membership just now. Please try again in a moment."
      linkLabel="Back to your membership"
    />
  );
}
