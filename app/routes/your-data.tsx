import { data, Form, Link, useNavigation } from "react-router";
import { assertSameOrigin } from "~/auth/cookies.server";
import { AccountField, Notice } from "~/components/account/account-ui";
import { RecordSections } from "~/components/privacy/RecordSections";
import { dayMonthYear } from "~/lib/dates-in-words";
import { seo, siteUrlFrom } from "~/lib/seo";
import { ACCOUNT_LIMITS } from "~/memberships/account-schema";
import { dataSubjectEmail } from "~/privacy/data-access.server";
import {
  askForDataLink,
  DATA_FORM_UNREADABLE,
  readDataForm,
  type DataFormResult,
} from "~/privacy/data-requests.server";
import { dataSubject, readPersonalRecords } from "~/privacy/personal-records.server";
import type { Route } from "./+types/your-data";

/** One person's records: never stored by a browser or a shared cache (server/app.ts says so too). */
const PRIVATE = { "Cache-Control": "private, no-store" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const email = await dataSubjectEmail(request, context);
  if (!email) return data({ identified: false as const }, { headers: PRIVATE });
  const now = context.clock.now();
  const records = await readPersonalRecords(context.db, await dataSubject(context.db, email), now);
  return data({ identified: true as const, records }, { headers: PRIVATE });
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request, context);
  const form = await readDataForm(request);
  if (!form || form.get("intent") !== "request-link")
    return data<DataFormResult>(
      { intent: "", ok: false, message: DATA_FORM_UNREADABLE },
      { status: 400, headers: PRIVATE },
    );
  const { status, result } = await askForDataLink(context, form);
  return data(result, { status, headers: PRIVATE });
}

export const headers: Route.HeadersFunction = () => PRIVATE;

function DataFrame({ children }: { children: React.ReactNode }) {
  return (
    <section className="container-page py-10 sm:py-14">
      <div className="card mx-auto max-w-3xl p-5 sm:p-10">
        <p className="text-sm font-semibold tracking-wide text-accent uppercase">Privacy</p>
        <h1 className="font-display mt-2 text-3xl sm:text-4xl">Your data</h1>
        {children}
      </div>
    </section>
  );
}

export default function YourData({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  if (!loaderData.identified) {
    const asked = actionData?.intent === "request-link" ? actionData : undefined;
    const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "request-link";
    return (
      <DataFrame>
        <p className="mt-3 text-ink/85">
          See, download or delete everything we hold under your email address: orders, tickets, messages and membership.
          We email you a link to it, so only you can open it.
        </p>
        {asked?.ok ? (
          <div className="mt-6">
            <Notice>{asked.message}</Notice>
          </div>
        ) : (
          <>
            {asked && !asked.errors ? (
              <div className="mt-6">
                <Notice tone="problem">{asked.message}</Notice>
              </div>
            ) : null}
            <Form method="post" noValidate className="mt-6 grid gap-4" aria-label="Email me a link to my data">
              <input type="hidden" name="intent" value="request-link" />
              <AccountField
                id="data-email"
                name="email"
                label="Email"
                type="email"
                autoComplete="email"
                maxLength={ACCOUNT_LIMITS.email}
                defaultValue={asked && !asked.ok ? asked.values?.email : undefined}
                error={asked && !asked.ok ? asked.errors?.email : undefined}
                hint="The address you used to order, book or write to us."
              />
              <button type="submit" className="btn-primary w-full sm:w-auto sm:justify-self-start" disabled={sending}>
                {sending ? "Sending..." : "Email me a link to my data"}
              </button>
            </Form>
          </>
        )}
        <p className="mt-8 text-sm text-ink/80">
          A member?{" "}
          <Link to="/account" className="link">
            Sign in to your membership
          </Link>{" "}
          and find your data there. How we use it:{" "}
          <Link to="/privacy" className="link">
            our privacy notice
          </Link>
          .
        </p>
      </DataFrame>
    );
  }
  const { records } = loaderData;
  const total = records.sections.reduce((n, s) => n + s.records.length, 0);
  return (
    <DataFrame>
      <p className="mt-3 break-words text-ink/85">
        Everything we hold under <strong>{records.email}</strong> on {dayMonthYear(records.generatedAt.slice(0, 10))}:{" "}
        {total === 1 ? "1 record" : `${total} records`}.
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        <a href="/your-data/download/json" className="btn-primary" download>
          Download my data (JSON)
        </a>
        <a href="/your-data/download/html" className="btn-outline" download>
          Download as a web page
        </a>
      </div>
      <RecordSections sections={records.sections} />
    </DataFrame>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Your data",
    description: "See, download or delete what Honey Bee holds under your email address.",
    path: "/your-data",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });

export function ErrorBoundary() {
  return (
    <DataFrame>
      <p className="mt-3 text-ink/85">We could not open your data just now. Please try again in a moment.</p>
    </DataFrame>
  );
}
