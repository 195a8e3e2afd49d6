import { data, Form, Link, redirect, useNavigation } from "react-router";
import { assertSameOrigin } from "~/auth/cookies.server";
import { AccountCard, AccountProblem, Notice } from "~/components/account/account-ui";
import { dayMonthYear } from "~/lib/dates-in-words";
import { seo, siteUrlFrom } from "~/lib/seo";
import { readAccountForm } from "~/memberships/account-actions.server";
import { nextRenewal } from "~/memberships/account.server";
import { memberFromLinkToken, memberLinkSettings } from "~/memberships/member-links.server";
import { cancelMembershipAndCard } from "~/memberships/card-subscriptions.server";
import { southAfricanDay } from "~/memberships/periods";
import { startRenewalCheckout } from "~/orders/renewal-checkout.server";
import type { Route } from "./+types/account-link";

/**
 * The Renew and Cancel links in reminder emails (/account/renew and /account/cancel, one module). A GET
 * only says what will happen, so a mail scanner opening the link changes nothing; the button's POST does it.
 */
const PRIVATE = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
const BAD_LINK =
  "This link has expired or is not valid: links in our emails stop working once the membership is renewed.";

const purposeOf = (request: Request) =>
  new URL(request.url).pathname.replace(/\/+$/, "").endsWith("/cancel") ? "cancel" : "renew";

async function linkedMember(request: Request, context: Route.LoaderArgs["context"], token: string) {
  const purpose = purposeOf(request);
  if (!token || token.length > 500) return { purpose, member: undefined };
  const member = await memberFromLinkToken(context.db, memberLinkSettings(context.config).secret, token, purpose);
  return { purpose, member };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { purpose, member } = await linkedMember(request, context, token);
  if (!member)
    return data({ purpose, problem: BAD_LINK, token: null, details: null }, { status: 410, headers: PRIVATE });
  const renewal = await nextRenewal(context.db, member);
  const today = southAfricanDay(context.clock.now());
  return data(
    {
      purpose,
      problem: null,
      token,
      details: {
        name: member.name,
        tierName: renewal.tierName,
        price: renewal.price,
        paidUntil: dayMonthYear(member.paidUntil),
        alreadyCancelled: member.status === "cancelled",
        stillPaid: today < member.paidUntil,
      },
    },
    { headers: PRIVATE },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request, context);
  const form = await readAccountForm(request);
  const posted = form?.get("token");
  const { purpose, member } = await linkedMember(request, context, typeof posted === "string" ? posted : "");
  if (!member) return data({ done: null, problem: BAD_LINK }, { status: 410, headers: PRIVATE });
  if (purpose === "renew") {
    const started = await startRenewalCheckout(context, member.id);
    if (started.ok) throw redirect(started.redirectUrl, { headers: { "Set-Cookie": started.buyerCookie } });
    return data({ done: null, problem: started.reason }, { status: 409, headers: PRIVATE });
  }
  const result = await cancelMembershipAndCard(context, member.id, "member");
  if (!result.ok) return data({ done: null, problem: result.reason }, { status: 409, headers: PRIVATE });
  const cancelled = result.member;
  return data(
    {
      done: `Your membership is cancelled. You keep it until ${dayMonthYear(cancelled.paidUntil)}, and we will not ask you to renew.`,
      problem: null,
    },
    { headers: PRIVATE },
  );
}

export const headers: Route.HeadersFunction = () => PRIVATE;

export default function AccountLink({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const renew = loaderData.purpose === "renew";
  const title = renew ? "Renew your membership" : "Cancel your membership";
  const problem = actionData?.problem ?? loaderData.problem;
  const back = (
    <p className="mt-8">
      <Link to="/account" className="link inline-flex min-h-11 items-center">
        Manage your membership
      </Link>
    </p>
  );
  if (actionData?.done) {
    return (
      <AccountCard title="Membership cancelled">
        <div className="mt-6">
          <Notice>{actionData.done}</Notice>
        </div>
        {back}
      </AccountCard>
    );
  }
  const d = loaderData.details;
  if (!d || !loaderData.token) {
    return (
      <AccountCard title={title}>
        <div className="mt-6">
          <Notice tone="problem">{problem}</Notice>
        </div>
        <p className="mt-4 text-ink/85">Sign in to your membership page to renew or cancel there.</p>
        {back}
      </AccountCard>
    );
  }
  return (
    <AccountCard title={title}>
      {problem ? (
        <div className="mt-6">
          <Notice tone="problem">{problem}</Notice>
        </div>
      ) : null}
      {renew ? (
        <p className="mt-4 text-ink/85">
          Hi {d.name}, renewing pays for one more month of <strong>{d.tierName}</strong>
          {d.price ? (
            <>
              , at <strong>{d.price}</strong>
            </>
          ) : null}
          . It starts on {d.paidUntil} if you are still paid up then, so no days are lost. You pay on the next page.
        </p>
      ) : d.alreadyCancelled ? (
        <p className="mt-4 text-ink/85">
          Hi {d.name}, your membership is already cancelled.{" "}
          {d.stillPaid ? `You keep it until ${d.paidUntil}.` : `It ended on ${d.paidUntil}.`}
        </p>
      ) : (
        <p className="mt-4 text-ink/85">
          Hi {d.name}, cancelling stops your <strong>{d.tierName}</strong> membership at the end of what you have paid
          for: you keep it until {d.paidUntil}, and we stop asking you to renew.
        </p>
      )}
      {renew || !d.alreadyCancelled ? (
        <Form method="post" className="mt-6">
          <input type="hidden" name="token" value={loaderData.token} />
          <button
            type="submit"
            className={renew ? "btn-primary" : "min-h-11 rounded-full bg-red-800 px-5 font-semibold text-white"}
            disabled={navigation.state !== "idle"}
          >
            {renew ? "Renew and pay" : "Yes, cancel my membership"}
          </button>
        </Form>
      ) : null}
      {back}
    </AccountCard>
  );
}

export const meta: Route.MetaFunction = ({ data: d, matches }) =>
  seo({
    title: d?.purpose === "cancel" ? "Cancel Membership" : "Renew Membership",
    description: "Renew or cancel your Honey Bee membership.",
    path: d?.purpose === "cancel" ? "/account/cancel" : "/account/renew",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });

export function ErrorBoundary() {
  return (
    <AccountProblem
      title="Something went wrong"
      text="We could not open this link just now. Please try again in a moment."
      linkLabel="Manage your membership"
    />
  );
}
