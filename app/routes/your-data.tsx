import { data, Form, Link, useNavigation } from "react-router";
import { assertSameOrigin } from "~/auth/cookies.server";
import { AccountField, Notice, LinkRequestAnswer } from "~/components/account/account-ui";
import { RecordSections } from "~/components/privacy/RecordSections";
import { dayMonthYear } from "~/lib/dates-in-words";
import { saDay } from "~/analytics/days";
import { seo, siteUrlFrom } from "~/lib/seo";
import { ACCOUNT_LIMITS } from "~/memberships/account-schema";
import { dataSubjectEmail } from "~/privacy/data-access.server";
import { erasureRequestSchema } from "~/privacy/erasure-schema";
import { openOrdersOf, scheduledErasureFor, scheduleErasure, undoErasureFor } from "~/privacy/erasure.server";
import { validateForm } from "~/lib/form";
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
  const who = await dataSubject(context.db, email);
  const [records, openOrders, scheduled] = await Promise.all([
    readPersonalRecords(context.db, who, now),
    openOrdersOf(context.db, who, now),
    scheduledErasureFor(context.db, email),
  ]);
  const erasure = scheduled
    ? { day: dayMonthYear(saDay(scheduled.scheduledFor)), waits: scheduled.openOrders === "wait" }
    : null;
  return data({ identified: true as const, records, openOrders, erasure }, { headers: PRIVATE });
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request, context);
  const form = await readDataForm(request);
  const posted = form?.get("intent");
  const intent = typeof posted === "string" ? posted : "";
  if (form && intent === "request-link") {
    const { status, result } = await askForDataLink(context, form);
    return data(result, { status, headers: PRIVATE });
  }
  const email = intent === "delete" || intent === "keep" ? await dataSubjectEmail(request, context) : undefined;
  if (!form || !email)
    return data<DataFormResult>(
      { intent: "", ok: false, message: DATA_FORM_UNREADABLE },
      { status: 400, headers: PRIVATE },
    );
  if (intent === "keep") {
    const undone = await undoErasureFor(context.db, email, context.clock.now());
    return data<DataFormResult>(
      { intent, ok: true, message: undone ? "Done: we will keep your data." : "Nothing was waiting to be deleted." },
      { headers: PRIVATE },
    );
  }
  const raw = form.get("openOrders");
  const checked = validateForm(erasureRequestSchema, { openOrders: typeof raw === "string" ? raw : "" });
  if (!checked.ok)
    return data<DataFormResult>(
      {
        intent,
        ok: false,
        message: checked.fieldErrors.openOrders ?? DATA_FORM_UNREADABLE,
        errors: checked.fieldErrors,
      },
      { status: 400, headers: PRIVATE },
    );
  const scheduled = await scheduleErasure(context, {
    email,
    openOrders: checked.data.openOrders,
    requestedBy: "person",
  });
  const day = dayMonthYear(saDay(scheduled.scheduledFor));
  return data<DataFormResult>(
    {
      intent,
      ok: true,
      message: `We will delete your data on ${day}. We have emailed you a link to undo it until then.`,
    },
    { headers: PRIVATE },
  );
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
        <LinkRequestAnswer asked={asked}>
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
        </LinkRequestAnswer>
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
  const { records, openOrders, erasure } = loaderData;
  const done = actionData?.intent === "delete" || actionData?.intent === "keep" ? actionData : undefined;
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
      <DeleteMyData openOrders={openOrders} erasure={erasure} result={done} busy={navigation.state !== "idle"} />
    </DataFrame>
  );
}

interface OpenOrderView {
  reference: string;
  what: string;
  why: string;
}

/**
 * "Delete my data": scheduled ERASURE_DAYS ahead, with the open orders named and the choice of what
 * happens to them; while it waits, the way to keep the data.
 */
function DeleteMyData({
  openOrders,
  erasure,
  result,
  busy,
}: {
  openOrders: OpenOrderView[];
  erasure: { day: string; waits: boolean } | null;
  result?: DataFormResult;
  busy: boolean;
}) {
  const error = result && !result.ok ? result.message : undefined;
  return (
    <section aria-labelledby="delete-heading" className="mt-10 grid gap-3 border-t border-ink/10 pt-8">
      <h2 id="delete-heading" className="text-2xl font-semibold">
        Delete my data
      </h2>
      {result?.ok ? <Notice>{result.message}</Notice> : null}
      {erasure ? (
        <Form method="post" className="grid gap-3">
          <p className="text-ink/85">
            Your data will be deleted on <strong>{erasure.day}</strong>
            {erasure.waits ? ", or once your open orders are done if that is later" : ""}. Changed your mind?
          </p>
          <button
            type="submit"
            name="intent"
            value="keep"
            className="btn-primary sm:justify-self-start"
            disabled={busy}
          >
            Keep my data
          </button>
        </Form>
      ) : (
        <Form method="post" noValidate className="grid gap-4">
          <p className="text-ink/85">
            We delete your name, email, phone, address, messages and membership details 7 days after you ask (the email
            we send has a link to undo it until then). The amounts, dates and items of your orders stay for the
            shop&apos;s books, under an anonymous reference.
          </p>
          {openOrders.length ? (
            <fieldset aria-describedby={error ? "open-orders-error" : undefined} className="grid gap-2">
              <legend className="font-semibold">These orders are still open:</legend>
              <ul className="list-disc pl-6">
                {openOrders.map((o) => (
                  <li key={`${o.reference}-${o.what}`} className="break-words">
                    {o.reference}: {o.what} ({o.why})
                  </li>
                ))}
              </ul>
              <label className="flex min-h-11 items-start gap-3">
                <input type="radio" name="openOrders" value="wait" className="mt-1 h-5 w-5 shrink-0 accent-ink" />
                <span>Wait until they are done, then delete my data</span>
              </label>
              <label className="flex min-h-11 items-start gap-3">
                <input type="radio" name="openOrders" value="erase" className="mt-1 h-5 w-5 shrink-0 accent-ink" />
                <span>
                  Delete it anyway: I understand nothing can be posted to me and my tickets will carry no name
                </span>
              </label>
              {error ? (
                <p id="open-orders-error" className="text-sm font-semibold text-red-800">
                  {error}
                </p>
              ) : null}
            </fieldset>
          ) : (
            <input type="hidden" name="openOrders" value="erase" />
          )}
          <button
            type="submit"
            name="intent"
            value="delete"
            className="min-h-11 rounded-full bg-red-800 px-5 font-semibold text-white sm:justify-self-start"
            disabled={busy}
          >
            Delete my data in 7 days
          </button>
        </Form>
      )}
    </section>
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
