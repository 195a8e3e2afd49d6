import { data, Form, Link, redirect, useNavigation } from "react-router";
import { assertSameOrigin } from "~/auth/cookies.server";
import { Notice } from "~/components/account/account-ui";
import { seo, siteUrlFrom } from "~/lib/seo";
import { DATA_LINK_PROBLEMS, dataLinkState, openDataLink } from "~/privacy/data-access.server";
import { readDataForm } from "~/privacy/data-requests.server";
import type { Route } from "./+types/your-data-open";

const PRIVATE = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };

/**
 * The page the emailed link opens. A GET only looks at the token (mail scanners fetch links); the
 * button's POST uses it and opens the data page in this browser.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const state = await dataLinkState(context.db, token, context.clock.now());
  return data(state === "valid" ? { token, problem: null } : { token: null, problem: DATA_LINK_PROBLEMS[state] }, {
    headers: PRIVATE,
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request, context);
  const form = await readDataForm(request);
  const posted = form?.get("token");
  const result = await openDataLink(context, typeof posted === "string" ? posted : "");
  if (result.ok) throw redirect("/your-data", { headers: { ...PRIVATE, "Set-Cookie": result.cookie } });
  return data({ problem: DATA_LINK_PROBLEMS[result.state] }, { status: 410, headers: PRIVATE });
}

export const headers: Route.HeadersFunction = () => PRIVATE;

export default function YourDataOpen({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const problem = actionData?.problem ?? loaderData.problem;
  return (
    <section className="container-page py-10 sm:py-14">
      <div className="card mx-auto max-w-xl p-6 sm:p-10">
        <p className="text-sm font-semibold tracking-wide text-accent uppercase">Privacy</p>
        <h1 className="font-display mt-2 text-3xl sm:text-4xl">Your data</h1>
        {problem || !loaderData.token ? (
          <>
            <div className="mt-6">
              <Notice tone="problem">{problem}</Notice>
            </div>
            <Link to="/your-data" className="btn-primary mt-6">
              Ask for a new link
            </Link>
          </>
        ) : (
          <>
            <p className="mt-3 text-ink/85">Press the button to see your data on this device, for the next hour.</p>
            <Form method="post" className="mt-6">
              <input type="hidden" name="token" value={loaderData.token} />
              <button type="submit" className="btn-primary" disabled={navigation.state !== "idle"}>
                {navigation.state !== "idle" ? "Opening..." : "See my data"}
              </button>
            </Form>
          </>
        )}
      </div>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Your data",
    description: "Open the data Honey Bee holds under your email address.",
    path: "/your-data/open",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
