import { data, Form, redirect, useNavigation } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { textFields, validateForm } from "~/lib/form";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { ErrorSummary, TextField } from "~/components/admin/fields";
import { PhotoPicker, photoPickerErrors } from "~/components/admin/PhotoPicker";
import { Picture } from "~/components/ui/Picture";
import {
  addGalleryPhotos,
  listGalleryPhotos,
  moveGalleryPhoto,
  removeGalleryPhoto,
  updateGalleryPhoto,
} from "~/gallery/gallery.server";
import {
  galleryAddSchema,
  galleryCaptionSchema,
  galleryMoveSchema,
  galleryRemoveSchema,
} from "~/gallery/gallery-schema";
import { readPhotosFromForm } from "~/media/photos.server";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/gallery";

type Refusal = { intent: string; id?: string; fieldErrors: Record<string, string>; values: Record<string, unknown> };

export async function loader({ context }: Route.LoaderArgs) {
  const rows = await listGalleryPhotos(context.db);
  return { photos: rows.map((r) => ({ id: r.id, src: r.src, alt: r.alt, caption: r.caption ?? "" })) };
}

const refuse = (refusal: Refusal) => data(refusal, { status: 400 });
const done = (title: string, description?: string, hash = "") =>
  redirect(`/admin/gallery${hash}`, { headers: { "Set-Cookie": setToastCookie({ title, description }) } });
const gone = () => data({ error: "This photo is no longer in the gallery." }, { status: 404 });

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const text = textFields(form, ["intent", "id", "alt", "caption", "direction"]);
  const { intent } = text;
  const now = context.clock.now();

  if (intent === "add") {
    const { photos, errors: uploadErrors } = await readPhotosFromForm(context.db, form);
    const values = { photos, caption: text.caption };
    const checked = validateForm(galleryAddSchema, values);
    if (!checked.ok || uploadErrors.length) {
      const fieldErrors = checked.ok ? {} : checked.fieldErrors;
      if (uploadErrors.length) fieldErrors.photos ??= uploadErrors.join(" ");
      return refuse({ intent, fieldErrors, values });
    }
    const added = await addGalleryPhotos(context.db, checked.data, now);
    if (!added.ok) return refuse({ intent, fieldErrors: { photos: added.error }, values });
    throw done(
      added.added === 1 ? "Photo added" : `${added.added} photos added`,
      "They show at the end of the gallery.",
    );
  }
  if (intent === "caption") {
    const values = { id: text.id, alt: text.alt, caption: text.caption };
    const checked = validateForm(galleryCaptionSchema, values);
    if (!checked.ok) return refuse({ intent, id: values.id, fieldErrors: checked.fieldErrors, values });
    if (!(await updateGalleryPhoto(context.db, checked.data, now))) throw gone();
    throw done("Photo saved", undefined, `#photo-${checked.data.id}`);
  }
  if (intent === "move") {
    const values = { id: text.id, direction: text.direction };
    const checked = validateForm(galleryMoveSchema, values);
    if (!checked.ok) return refuse({ intent, id: values.id, fieldErrors: checked.fieldErrors, values });
    const moved = await moveGalleryPhoto(context.db, Number(checked.data.id), checked.data.direction, now);
    if (moved === "missing") throw gone();
    if (moved === "edge")
      return refuse({
        intent,
        id: values.id,
        fieldErrors: { form: `This photo is already ${checked.data.direction === "up" ? "first" : "last"}.` },
        values,
      });
    throw done("Photo moved", undefined, `#photo-${checked.data.id}`);
  }
  if (intent === "remove") {
    const values = { id: text.id };
    const checked = validateForm(galleryRemoveSchema, values);
    if (!checked.ok) return refuse({ intent, id: values.id, fieldErrors: checked.fieldErrors, values });
    if (!(await removeGalleryPhoto(context.db, Number(checked.data.id), now))) throw gone();
    throw done("Photo removed", "It is no longer in the gallery.");
  }
  return refuse({ intent, fieldErrors: { form: "Unknown action: nothing was changed." }, values: {} });
}

export default function AdminGallery({ loaderData, actionData }: Route.ComponentProps) {
  const { photos } = loaderData;
  const refusal = actionData as Refusal | undefined;
  const addRefusal = refusal?.intent === "add" ? refusal : undefined;
  const addPhotos = (addRefusal?.values.photos as { src: string; alt: string }[] | undefined) ?? [];
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Gallery">
        <a href="/events-gallery" className="btn-outline min-h-11 px-4 py-1.5 text-sm">
          View gallery
        </a>
      </AdminPageHeader>

      <Form
        method="post"
        encType="multipart/form-data"
        className="card max-w-3xl space-y-5 p-4 sm:p-6"
        noValidate
        aria-labelledby="gallery-add-heading"
      >
        <h2 id="gallery-add-heading" className="text-xl font-semibold">
          Add photos
        </h2>
        <ErrorSummary errors={addRefusal?.fieldErrors} />
        <PhotoPicker
          label="New photos"
          initial={addPhotos}
          {...photoPickerErrors(addRefusal?.fieldErrors, addPhotos)}
        />
        <TextField
          id="gallery-add-caption"
          label="Caption (optional)"
          name="caption"
          defaultValue={String(addRefusal?.values.caption ?? "")}
          error={addRefusal?.fieldErrors.caption}
          maxLength={300}
          hint="Shown under each new photo."
        />
        <button type="submit" name="intent" value="add" className="btn-primary" disabled={busy}>
          Add to gallery
        </button>
      </Form>

      <section aria-labelledby="gallery-photos-heading" className="max-w-3xl space-y-3">
        <h2 id="gallery-photos-heading" className="text-xl font-semibold">
          {photos.length === 1 ? "1 photo" : `${photos.length} photos`}, in the order visitors see them
        </h2>
        {photos.length === 0 ? (
          <p className="text-ink-soft">The gallery is empty: visitors see a short note instead.</p>
        ) : null}
        <ol className="space-y-3">
          {photos.map((photo, index) => {
            const mine = refusal && refusal.intent !== "add" && refusal.id === String(photo.id) ? refusal : undefined;
            const errors = mine?.fieldErrors;
            const edited = mine?.intent === "caption" ? (mine.values as { alt: string; caption: string }) : photo;
            const place = `photo ${index + 1} of ${photos.length}`;
            return (
              <li key={photo.id} id={`photo-${photo.id}`} className="card flex flex-col gap-4 p-4 sm:flex-row">
                <Picture
                  src={photo.src}
                  alt={photo.alt}
                  sizes="128px"
                  width={128}
                  height={128}
                  loading="lazy"
                  className="h-32 w-32 shrink-0 rounded-lg object-cover"
                />
                <div className="min-w-0 flex-1 space-y-3">
                  <ErrorSummary errors={errors} />
                  <Form
                    method="post"
                    className="space-y-3"
                    noValidate
                    aria-label={`Words for ${place}`}
                    key={`${photo.alt}|${photo.caption}`}
                  >
                    <input type="hidden" name="id" value={photo.id} />
                    <TextField
                      id={`photo-${photo.id}-alt`}
                      label="Alt text"
                      name="alt"
                      defaultValue={edited.alt}
                      error={errors?.alt}
                      required
                      maxLength={200}
                      hint="What the photo shows, for screen readers."
                    />
                    <TextField
                      id={`photo-${photo.id}-caption`}
                      label="Caption"
                      name="caption"
                      defaultValue={edited.caption}
                      error={errors?.caption}
                      maxLength={300}
                    />
                    <button
                      type="submit"
                      name="intent"
                      value="caption"
                      className="btn-outline min-h-11 px-4 py-1.5 text-sm"
                      disabled={busy}
                    >
                      Save words<span className="sr-only"> of {place}</span>
                    </button>
                  </Form>
                  <div className="flex flex-wrap items-center gap-2">
                    {index > 0 ? (
                      <Form method="post">
                        <input type="hidden" name="id" value={photo.id} />
                        <input type="hidden" name="direction" value="up" />
                        <button
                          type="submit"
                          name="intent"
                          value="move"
                          className="btn-outline min-h-11 px-4 py-1.5 text-sm"
                          disabled={busy}
                        >
                          Move up<span className="sr-only"> {place}</span>
                        </button>
                      </Form>
                    ) : null}
                    {index < photos.length - 1 ? (
                      <Form method="post">
                        <input type="hidden" name="id" value={photo.id} />
                        <input type="hidden" name="direction" value="down" />
                        <button
                          type="submit"
                          name="intent"
                          value="move"
                          className="btn-outline min-h-11 px-4 py-1.5 text-sm"
                          disabled={busy}
                        >
                          Move down<span className="sr-only"> {place}</span>
                        </button>
                      </Form>
                    ) : null}
                  </div>
                  <details>
                    <summary className="min-h-11 cursor-pointer py-2 font-semibold">
                      Remove<span className="sr-only"> {place}</span>
                    </summary>
                    <Form method="post" className="mt-2">
                      <input type="hidden" name="id" value={photo.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="remove"
                        className="min-h-11 rounded-full bg-red-800 px-5 font-semibold text-white"
                      >
                        Yes, remove it from the gallery
                      </button>
                    </Form>
                  </details>
                </div>
              </li>
            );
          })}
        </ol>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Gallery",
    description: "The events gallery's photos.",
    path: "/admin/gallery",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
