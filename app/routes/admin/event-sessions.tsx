import { eq } from "drizzle-orm";
import { data, Form, Link, redirect } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { textFields, validateForm } from "~/lib/form";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { ErrorSummary, TextField } from "~/components/admin/fields";
import { events } from "~/db/schema";
import { SESSION_FIELDS, sessionRemoveSchema, sessionSchema } from "~/events/session-schema";
import {
  addEventSession,
  defaultWorkshopSession,
  describeSession,
  listEventSessions,
  removeEventSession,
  SessionEditError,
} from "~/events/sessions.server";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/event-sessions";

async function findEventOr404(context: Route.LoaderArgs["context"], id: string) {
  const [event] = await context.db
    .select({ id: events.id, title: events.title })
    .from(events)
    .where(eq(events.id, id.slice(0, 100)));
  if (!event) throw data("Event not found", { status: 404 });
  return event;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const event = await findEventOr404(context, params.id);
  const fallback = defaultWorkshopSession(context.clock.now());
  return {
    event,
    sessions: await listEventSessions(context.db, event.id),
    defaultLabel: describeSession(fallback.startsAt, fallback.endsAt),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const event = await findEventOr404(context, params.id);
  const form = await request.formData();
  const back = `/admin/events/${encodeURIComponent(event.id)}/sessions`;
  const now = context.clock.now();
  try {
    if (textFields(form, ["intent"]).intent === "remove") {
      const checked = validateForm(sessionRemoveSchema, textFields(form, ["sessionId"]));
      if (!checked.ok)
        return data({ fieldErrors: { form: checked.fieldErrors.sessionId }, values: {} }, { status: 400 });
      const label = await removeEventSession(context.db, event.id, Number(checked.data.sessionId), now);
      throw redirect(back, {
        headers: { "Set-Cookie": setToastCookie({ title: "Session removed", description: label }) },
      });
    }
    const values = textFields(form, SESSION_FIELDS);
    const checked = validateForm(sessionSchema, values);
    if (!checked.ok) return data({ fieldErrors: checked.fieldErrors, values }, { status: 400 });
    const label = await addEventSession(context.db, event.id, checked.data, now);
    throw redirect(back, { headers: { "Set-Cookie": setToastCookie({ title: "Session added", description: label }) } });
  } catch (error) {
    if (error instanceof SessionEditError) {
      return data({ fieldErrors: { form: error.message }, values: textFields(form, SESSION_FIELDS) }, { status: 409 });
    }
    throw error;
  }
}

export default function EventSessions({ loaderData, actionData }: Route.ComponentProps) {
  const { event, sessions, defaultLabel } = loaderData;
  const errors = actionData?.fieldErrors as Record<string, string> | undefined;
  const values = (actionData?.values ?? {}) as Record<string, string>;
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title={`Session dates: ${event.title}`}>
        <Link
          to={`/admin/events/${encodeURIComponent(event.id)}/attendees`}
          className="btn-outline min-h-11 px-4 py-1.5 text-sm"
        >
          Attendees
        </Link>
      </AdminPageHeader>
      <p className="text-ink-soft">
        Buyers join the next session listed here. With none in the future, the next session is the first Saturday of the
        coming month, 10:00 to 13:00: now {defaultLabel}.
      </p>
      {sessions.length === 0 ? (
        <p>No session dates set yet.</p>
      ) : (
        <ul className="space-y-3" aria-label="Sessions">
          {sessions.map((s) => (
            <li key={s.id} className="card flex flex-wrap items-center justify-between gap-3 p-4">
              <div>
                <p className="font-semibold">{s.label}</p>
                <p className="text-sm text-ink-soft">
                  {s.capacity === null ? "Seats: the ticket's own" : `Seats: ${s.capacity}`},{" "}
                  {s.sold === 1 ? "1 ticket sold" : `${s.sold} tickets sold`}
                </p>
              </div>
              {s.sold === 0 ? (
                <details>
                  <summary className="btn-outline min-h-11 cursor-pointer px-4 py-1.5 text-sm">
                    Remove<span className="sr-only"> {s.label}</span>
                  </summary>
                  <Form method="post" className="mt-2">
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="sessionId" value={s.id} />
                    <button type="submit" className="btn-dark min-h-11 px-4 py-1.5 text-sm">
                      Yes, remove this session
                    </button>
                  </Form>
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Form method="post" className="card space-y-4 p-4" noValidate>
        <h2 className="font-display text-xl">Add a session</h2>
        <ErrorSummary errors={errors} />
        {errors?.form ? (
          <p role="alert" className="font-semibold text-accent">
            {errors.form}
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Date"
            name="date"
            type="date"
            required
            defaultValue={values.date ?? ""}
            error={errors?.date}
          />
          <TextField
            label="Seats (empty: the ticket's own)"
            name="capacity"
            inputMode="numeric"
            defaultValue={values.capacity ?? ""}
            error={errors?.capacity}
          />
          <TextField
            label="Starts (South African time)"
            name="start"
            type="time"
            required
            defaultValue={values.start ?? "10:00"}
            error={errors?.start}
          />
          <TextField
            label="Ends"
            name="end"
            type="time"
            required
            defaultValue={values.end ?? "13:00"}
            error={errors?.end}
          />
        </div>
        <button type="submit" className="btn-primary min-h-11 px-6">
          Add session
        </button>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Session dates",
    description: "The workshop's session dates.",
    path: "/admin/events",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
