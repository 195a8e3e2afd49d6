import { data, Form, redirect, useNavigation } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { formatDateTime } from "~/admin/format-date";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { ErrorSummary, SelectField, TextField } from "~/components/admin/fields";
import { textFields, validateForm } from "~/lib/form";
import { seo, siteUrlFrom } from "~/lib/seo";
import { ownerErasureSchema } from "~/privacy/erasure-schema";
import { stopCardCharges } from "~/memberships/card-subscriptions.server";
import { carryOutErasure, listErasureRequests, scheduleErasure } from "~/privacy/erasure.server";
import type { Route } from "./+types/data-requests";

export async function loader({ context }: Route.LoaderArgs) {
  const rows = await listErasureRequests(context.db);
  return {
    requests: rows.map((r) => ({
      id: r.id,
      reference: r.reference,
      // The address only while the request waits: once carried out (or undone and then carried out) it is gone.
      email: r.status === "scheduled" ? r.email : null,
      status: r.status,
      requestedBy: r.requestedBy,
      openOrders: r.openOrders,
      requestedAt: r.requestedAt.toISOString(),
      scheduledFor: r.scheduledFor.toISOString(),
      closedAt: (r.carriedOutAt ?? r.cancelledAt)?.toISOString() ?? null,
    })),
  };
}

const OPEN_ORDER_CHOICES = [
  { value: "wait", label: "Wait until they are done" },
  { value: "erase", label: "Erase them too" },
] as const;

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const { intent, id } = textFields(form, ["intent", "id"]);
  const now = context.clock.now();
  if (intent === "run") {
    const outcome = /^\d{1,9}$/.test(id)
      ? await carryOutErasure(context.db, Number(id), now, "owner", (memberId) => stopCardCharges(context, memberId))
      : "gone";
    const toast =
      outcome === "done"
        ? { title: "Data erased", description: "Their orders stay under the reference, with no name." }
        : outcome === "waiting"
          ? { title: "Not yet", description: "They chose to wait until their open orders are done." }
          : { title: "Nothing to do", description: "That request was undone or carried out already." };
    throw redirect("/admin/data-requests", { headers: { "Set-Cookie": setToastCookie(toast) } });
  }
  const values = textFields(form, ["email", "openOrders"]);
  if (intent !== "schedule")
    return data({ fieldErrors: { form: "Unknown action: nothing was changed." }, values }, { status: 400 });
  const checked = validateForm(ownerErasureSchema, values);
  if (!checked.ok) return data({ fieldErrors: checked.fieldErrors, values }, { status: 400 });
  const scheduled = await scheduleErasure(context, { ...checked.data, requestedBy: "owner" });
  throw redirect("/admin/data-requests", {
    headers: {
      "Set-Cookie": setToastCookie({
        title: `Erasure ${scheduled.reference} scheduled`,
        description: "They have been emailed the date and a link to undo it.",
      }),
    },
  });
}

const STATUS_WORDS = { scheduled: "Scheduled", cancelled: "Undone", done: "Erased" } as const;

export default function AdminDataRequests({ loaderData, actionData }: Route.ComponentProps) {
  const errors = actionData?.fieldErrors as Record<string, string> | undefined;
  const busy = useNavigation().state === "submitting";
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Data requests" />
      <p className="text-ink-soft">
        People who asked to have their data deleted. Each is carried out 7 days after the request unless they undo it
        from their email; their orders stay for the books under an anonymous reference.
      </p>
      {loaderData.requests.length === 0 ? (
        <p className="text-ink-soft">No requests yet.</p>
      ) : (
        <ul className="space-y-3">
          {loaderData.requests.map((r) => (
            <li key={r.id} className="card p-4">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="min-w-0 font-semibold break-words">
                  {r.reference}
                  {r.email ? `: ${r.email}` : ""}
                </p>
                <p className="text-sm font-semibold">{STATUS_WORDS[r.status]}</p>
              </div>
              <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
                <dt className="font-semibold">Asked</dt>
                <dd>
                  {formatDateTime(r.requestedAt)} {r.requestedBy === "owner" ? "(entered by you)" : "(by the person)"}
                </dd>
                <dt className="font-semibold">{r.status === "scheduled" ? "Due" : "Was due"}</dt>
                <dd>{formatDateTime(r.scheduledFor)}</dd>
                <dt className="font-semibold">Open orders</dt>
                <dd>{r.openOrders === "wait" ? "Wait until they are done" : "Erase them too"}</dd>
                {r.closedAt ? (
                  <>
                    <dt className="font-semibold">{r.status === "done" ? "Erased" : "Undone"}</dt>
                    <dd>{formatDateTime(r.closedAt)}</dd>
                  </>
                ) : null}
              </dl>
              {r.status === "scheduled" ? (
                <details className="mt-3">
                  <summary className="min-h-11 cursor-pointer py-2 font-semibold">Erase now</summary>
                  <p className="mt-1 text-sm text-ink-soft">
                    For a person who asked you not to wait. It cannot be undone.
                  </p>
                  <Form method="post" className="mt-2">
                    <input type="hidden" name="id" value={r.id} />
                    <button type="submit" name="intent" value="run" className="btn-dark min-h-11 px-5" disabled={busy}>
                      Yes, erase {r.reference} now
                    </button>
                  </Form>
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      <Form method="post" noValidate className="card max-w-2xl space-y-5 p-4 sm:p-6">
        <h2 className="text-xl font-semibold">Request on someone&apos;s behalf</h2>
        <p className="text-ink-soft">
          For a person who asked by phone or in person. They are emailed the date and a link to undo it.
        </p>
        <ErrorSummary errors={errors} />
        <TextField
          label="Their email address"
          name="email"
          type="email"
          autoComplete="off"
          maxLength={254}
          defaultValue={(actionData?.values as { email?: string } | undefined)?.email ?? ""}
          error={errors?.email}
          required
        />
        <SelectField
          label="Their open orders (unpaid, to post, tickets to come)"
          name="openOrders"
          options={OPEN_ORDER_CHOICES}
          defaultValue={(actionData?.values as { openOrders?: string } | undefined)?.openOrders ?? "wait"}
          error={errors?.openOrders}
        />
        <button type="submit" name="intent" value="schedule" className="btn-primary" disabled={busy}>
          Schedule the erasure
        </button>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Data requests",
    description: "Requests to delete a person's data.",
    path: "/admin/data-requests",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
