import { data, Form, Link, redirect, useNavigation } from "react-router";
import { archiveOrDelete, archivedOrDeletedToast } from "~/admin/archive-or-delete.server";
import { setToastCookie } from "~/admin/flash-toast.server";
import { textFields, validateForm } from "~/lib/form";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { CheckboxField, ErrorSummary, TextAreaField, TextField } from "~/components/admin/fields";
import { PhotoPicker, photoPickerErrors } from "~/components/admin/PhotoPicker";
import { RandField } from "~/components/admin/RandField";
import { findEventForAdmin, removeEvent } from "~/events/event-admin.server";
import { saveEvent } from "~/events/event-save.server";
import {
  EVENT_TEXT_FIELDS,
  eventSchema,
  MAX_TICKET_OPTIONS,
  readOptionRows,
  splitOptionRows,
  TICKET_PRICE_RULES,
  toSouthAfricanDateTimeLocal,
  type OptionRow,
} from "~/events/event-schema";
import { readPhotosFromForm } from "~/media/photos.server";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/event-edit";
import { photosWithAlts } from "~/media/photo-schema";
import { AdminNotFound, ConfirmDelete } from "~/components/admin/ConfirmDelete";

interface FormValues {
  title: string;
  starts: string;
  ends: string;
  location: string;
  focus: string;
  description: string;
  includes: string;
  photos: { src: string; alt: string }[];
  rows: OptionRow[];
}

const NEW_EVENT: FormValues = {
  title: "",
  starts: "",
  ends: "",
  location: "",
  focus: "",
  description: "",
  includes: "",
  photos: [],
  rows: [],
};

/** The event's id from the URL, or null on /admin/events/new; a malformed id is a 404. */
function eventId(params: { id?: string }): string | null {
  if (params.id === undefined) return null;
  if (!/^[a-z0-9][a-z0-9_-]{0,199}$/.test(params.id)) throw data({ error: "Event not found" }, { status: 404 });
  return params.id;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = eventId(params);
  if (id === null) return { id: null, values: NEW_EVENT };
  const found = await findEventForAdmin(context.db, id);
  if (!found) throw data({ error: "Event not found" }, { status: 404 });
  const { event, options } = found;
  const values: FormValues = {
    title: event.title,
    starts: toSouthAfricanDateTimeLocal(event.startsAt),
    ends: toSouthAfricanDateTimeLocal(event.endsAt),
    location: event.location,
    focus: event.focus,
    description: event.description,
    includes: event.includes.join("\n"),
    photos: photosWithAlts(event.images, event.imageAlts, event.title),
    rows: options.map((o) => ({
      id: String(o.id),
      type: o.type,
      price: (o.priceCents / 100).toFixed(2),
      confirmPrice: "",
      capacity: o.capacity === null ? "" : String(o.capacity),
      from: toSouthAfricanDateTimeLocal(o.availableFrom),
      until: toSouthAfricanDateTimeLocal(o.availableUntil),
      remove: false,
    })),
  };
  return { id: event.id, values };
}

/** Messages keyed by the schema's paths, moved to the form's rows (`option.{row}.{field}`). */
function toRowErrors(errors: Record<string, string>, rowOf: number[], removeRowOf: number[]) {
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) {
    const option = /^options\.(\d+)\.(\w+)$/.exec(key);
    const removal = /^remove\.(\d+)$/.exec(key);
    if (option) out[`option.${rowOf[Number(option[1])]}.${option[2]}`] ??= message;
    else if (removal) out[`option.${removeRowOf[Number(removal[1])]}.remove`] ??= message;
    else if (key !== "remove") out[key] ??= message;
    if (option || removal) out.options ??= message;
  }
  return out;
}

/** The tenfold changes the server asked about, moved to the form's rows like their messages. */
function toRowConfirms(confirm: Record<string, number> | undefined, rowOf: number[]) {
  const out: Record<string, number> = {};
  for (const [key, cents] of Object.entries(confirm ?? {})) {
    const option = /^options\.(\d+)\.price$/.exec(key);
    if (option) out[`option.${rowOf[Number(option[1])]}.price`] = cents;
  }
  return out;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = eventId(params);
  const form = await request.formData();
  const now = context.clock.now();

  if (textFields(form, ["intent"]).intent === "delete") {
    return archiveOrDelete({
      id,
      notFound: "Event not found",
      remove: (found) => removeEvent(context.db, found, now),
      listPath: "/admin/events",
      toast: archivedOrDeletedToast("Event", "site"),
    });
  }

  const { photos, errors: uploadErrors } = await readPhotosFromForm(context.db, form);
  const rows = readOptionRows(form);
  const { options, remove, rowOf } = splitOptionRows(rows);
  const removeRowOf = rows.flatMap((r, i) => (r.remove && r.id !== "" ? [i] : []));
  const text = textFields(form, EVENT_TEXT_FIELDS);
  const values: FormValues = { ...text, photos, rows };
  const checked = validateForm(eventSchema, { ...text, photos, options, remove });
  if (!checked.ok || uploadErrors.length) {
    const fieldErrors = checked.ok ? {} : toRowErrors(checked.fieldErrors, rowOf, removeRowOf);
    if (uploadErrors.length) fieldErrors.photos ??= uploadErrors.join(" ");
    return data({ fieldErrors, values }, { status: 400 });
  }
  const saved = await saveEvent(context.db, { id, input: checked.data, now });
  if (!saved.ok) {
    return data(
      {
        fieldErrors: toRowErrors(saved.fieldErrors, rowOf, removeRowOf),
        values,
        confirm: toRowConfirms(saved.confirm, rowOf),
      },
      { status: saved.fieldErrors.form ? 409 : 400 },
    );
  }
  const toast = {
    title: saved.created ? "Event added" : "Event saved",
    description: "It shows on the events page now.",
  };
  throw redirect(`/admin/events/${saved.id}`, { headers: { "Set-Cookie": setToastCookie(toast) } });
}

function OptionFields({
  row,
  index,
  errors,
  confirm,
}: {
  row: OptionRow | null;
  index: number;
  errors?: Record<string, string>;
  confirm?: Record<string, number>;
}) {
  const name = (f: string) => `option.${index}.${f}`;
  const err = (f: string) => errors?.[name(f)];
  return (
    <fieldset className="space-y-4 rounded-xl border border-ink/20 p-4">
      <legend className="px-1 font-semibold">{row ? `Ticket option ${index + 1}` : "Add a ticket option"}</legend>
      {row ? <input type="hidden" name={name("id")} value={row.id} /> : null}
      {!row ? (
        <p className="text-sm text-ink-soft">
          Fill in Ticket type and Price to add an option; leave empty to add none.
        </p>
      ) : null}
      {err("id") ? <p className="text-sm font-semibold text-red-800">{err("id")}</p> : null}
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          label="Ticket type"
          name={name("type")}
          defaultValue={row?.type ?? ""}
          error={err("type")}
          maxLength={80}
        />
        <RandField
          label="Price (R)"
          name={name("price")}
          defaultValue={row?.price ?? ""}
          error={err("price")}
          hint="e.g. 100 or 100,00"
          rules={TICKET_PRICE_RULES}
          confirmName={name("confirmPrice")}
          confirmCents={confirm?.[name("price")]}
        />
        <TextField
          label="Capacity"
          name={name("capacity")}
          defaultValue={row?.capacity ?? ""}
          error={err("capacity")}
          inputMode="numeric"
          hint="Seats; empty for no limit"
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="On sale from"
          name={name("from")}
          type="datetime-local"
          defaultValue={row?.from ?? ""}
          error={err("from")}
          hint="Empty: on sale now"
        />
        <TextField
          label="On sale until"
          name={name("until")}
          type="datetime-local"
          defaultValue={row?.until ?? ""}
          error={err("until")}
          hint="Empty: until the event starts"
        />
      </div>
      {row?.id ? (
        <CheckboxField
          label="Remove"
          name={name("remove")}
          defaultChecked={row.remove}
          error={err("remove")}
          hint="Removes this option when you save. An option with orders can't be removed."
        />
      ) : null}
    </fieldset>
  );
}

export default function AdminEventEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { id } = loaderData;
  const values = (actionData?.values as FormValues | undefined) ?? loaderData.values;
  const errors = actionData?.fieldErrors as Record<string, string> | undefined;
  const confirm = actionData && "confirm" in actionData ? (actionData.confirm as Record<string, number>) : undefined;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") !== "delete";
  const title = id === null ? "New event" : `Edit ${loaderData.values.title}`;
  const rows = values.rows.slice(0, MAX_TICKET_OPTIONS);
  return (
    <div className={adminPageClass}>
      <Link to="/admin/events" className="link text-sm">
        ← All events
      </Link>
      <AdminPageHeader title={title}>
        {id ? (
          <>
            <Link to={`/admin/events/${id}/attendees`} className="btn-outline min-h-11 px-4 py-1.5 text-sm">
              Attendees
            </Link>
            <Link to={`/admin/events/${id}/sessions`} className="btn-outline min-h-11 px-4 py-1.5 text-sm">
              Sessions
            </Link>
            <Link to={`/admin/events/${id}/waiting-list`} className="btn-outline min-h-11 px-4 py-1.5 text-sm">
              Waiting list
            </Link>
            <a href={`/tickets/${id}`} className="btn-outline min-h-11 px-4 py-1.5 text-sm">
              View on site
            </a>
          </>
        ) : null}
      </AdminPageHeader>

      {/* A key per saved version, so the fields show what was stored after a save. */}
      <Form
        method="post"
        encType="multipart/form-data"
        className="card max-w-3xl space-y-5 p-4 sm:p-6"
        key={JSON.stringify(loaderData.values)}
        noValidate
      >
        <ErrorSummary errors={errors} />
        <TextField
          label="Title"
          name="title"
          defaultValue={values.title}
          error={errors?.title}
          required
          maxLength={120}
          hint={id === null ? "The event's address is made from it: /tickets/your-title." : undefined}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="Starts"
            name="starts"
            type="datetime-local"
            defaultValue={values.starts}
            error={errors?.starts}
            hint="South African time"
          />
          <TextField
            label="Ends"
            name="ends"
            type="datetime-local"
            defaultValue={values.ends}
            error={errors?.ends}
            hint="South African time"
          />
        </div>
        <TextField
          label="Location"
          name="location"
          defaultValue={values.location}
          error={errors?.location}
          required
          maxLength={200}
        />
        <TextField
          label="Focus"
          name="focus"
          defaultValue={values.focus}
          error={errors?.focus}
          required
          maxLength={300}
          hint="One line, e.g. Upcycling, sewing basics"
        />
        <TextAreaField
          label="Description"
          name="description"
          defaultValue={values.description}
          error={errors?.description}
          required
          rows={6}
        />
        <TextAreaField
          label="What's included"
          name="includes"
          defaultValue={values.includes}
          error={errors?.includes}
          rows={4}
          hint="One item a line."
        />
        <PhotoPicker initial={values.photos} {...photoPickerErrors(errors, values.photos)} max={12} label="Photos" />
        <section aria-labelledby="ticket-options-heading" className="space-y-4">
          <h2 id="ticket-options-heading" className="text-xl font-semibold">
            Ticket options
          </h2>
          {errors?.options && !Object.keys(errors).some((k) => k.startsWith("option.")) ? (
            <p className="text-sm font-semibold text-red-800">{errors.options}</p>
          ) : null}
          {rows.map((row, i) => (
            <OptionFields key={`${row.id}-${i}`} row={row} index={i} errors={errors} confirm={confirm} />
          ))}
          {rows.length < MAX_TICKET_OPTIONS ? <OptionFields row={null} index={rows.length} errors={errors} /> : null}
        </section>
        <button type="submit" name="intent" value="save" className="btn-primary" disabled={saving}>
          {saving ? "Saving..." : id === null ? "Add event" : "Save event"}
        </button>
      </Form>

      {id !== null ? (
        <ConfirmDelete
          summary="Delete this event"
          explanation="An event with ticket orders is archived instead: hidden from the site and kept for its orders."
          name={loaderData.values.title}
        />
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  seo({
    title: loaderData?.id ? `Edit ${loaderData.values.title}` : "New event",
    description: "Edit an event and its tickets.",
    path: "/admin/events",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });

export function ErrorBoundary() {
  return <AdminNotFound title="Event not found" backTo="/admin/events" backLabel="All events" />;
}
