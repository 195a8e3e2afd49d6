import { data, Form, Link, useNavigation } from "react-router";
import { assertSameOrigin } from "~/auth/cookies.server";
import { Notice } from "~/components/account/account-ui";
import { seo, siteUrlFrom } from "~/lib/seo";
import { readDataForm } from "~/privacy/data-requests.server";
import { undoErasureByToken } from "~/privacy/erasure.server";
import type { Route } from "./+types/your-data-undo";

const PRIVATE = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
const NOT_WAITING =
  "Nothing is waiting to be deleted under this link: it was undone already, or the deletion has been carried out.";

/** The confirmation email's undo link: the GET shows the button (mail scanners fetch links), the POST undoes. */
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return data({ token }, { headers: PRIVATE });
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request, context);
  const form = await readDataForm(request);
  const token = form?.get("token");
  const outcome = await undoErasureByToken(context.db, typeof token === "string" ? token : "", context.clock.now());
  return data(
    outcome === "undone" ? { ok: true, message: "Done: we will keep your data." } : { ok: false, message: NOT_WAITING },
    { status: outcome === "undone" ? 200 : 410, headers: PRIVATE },
  );
}

export const headers: Route.HeadersFunction = () => PRIVATE;

export default function YourDataUndo({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  return (
    <section className="container-page py-10 sm:py-14">
      <div className="card mx-auto max-w-xl p-6 sm:p-10">
        <p className="text-sm font-semibold tracking-wide text-accent uppercase">Privacy</p>
        <h1 className="font-display mt-2 text-3xl sm:text-4xl">Keep my data</h1>
        {actionData ? (
          <div className="mt-6">
            <Notice tone={actionData.ok ? "info" : "problem"}>{actionData.message}</Notice>
          </div>
        ) : (
          <>
            <p className="mt-3 text-ink/85">Press the button to stop the deletion of your data.</p>
            <Form method="post" className="mt-6">
              <input type="hidden" name="token" value={loaderData.token} />
              <button type="submit" className="btn-primary" disabled={navigation.state !== "idle"}>
                Keep my data
              </button>
            </Form>
          </>
        )}
        <p className="mt-8 text-sm">
          <Link to="/your-data" className="link">
            Your data
          </Link>
        </p>
      </div>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Keep my data",
    description: "Stop the deletion of your data at Honey Bee.",
    path: "/your-data/undo",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
