import { data } from "react-router";
import { MAX_PHOTO_BYTES } from "~/media/photo-schema";
import { storePhoto } from "~/media/photos.server";
import type { Route } from "./+types/photos";

const json = (body: object, status: number) => data(body, { status, headers: { "Cache-Control": "no-store" } });

/**
 * POST /admin/photos: one photo per request, as multipart field `file`, from the photo picker's
 * XMLHttpRequest (app/components/admin/PhotoPicker.tsx). 201 with the stored photo, or 4xx with a
 * message for the owner; a refused file stores nothing.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("multipart/form-data"))
    return json({ error: "Send the photo as a file upload (multipart/form-data)." }, 415);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return json({ error: "The upload arrived incomplete. Try again." }, 400);
  }
  const file = form.get("file");
  if (!file || typeof file === "string" || (file.size === 0 && file.name === "")) {
    return json({ error: "Choose a photo to upload." }, 400);
  }
  const stored = await storePhoto(context.db, new Uint8Array(await file.arrayBuffer()), file.name);
  if (!stored.ok) return json({ error: stored.error }, file.size > MAX_PHOTO_BYTES ? 413 : 422);
  return json({ photo: stored.photo }, 201);
}
