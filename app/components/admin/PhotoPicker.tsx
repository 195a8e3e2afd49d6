import { useEffect, useId, useRef, useState, type DragEvent } from "react";
import { hasRenditions, renditionUrl } from "~/lib/image-renditions";
import {
  MAX_PHOTO_BYTES,
  PHOTO_ACCEPT,
  PHOTO_ALT_MAX,
  TOO_LARGE_MESSAGE,
  type StoredPhoto,
} from "~/media/photo-schema";

export interface PhotoPickerProps {
  label?: string;
  initial: { src: string; alt: string }[];
  error?: string;
  /** Per photo, by index: the alt text's message. */
  fieldErrors?: string[];
  max?: number;
}

interface Photo {
  key: string;
  src: string;
  alt: string;
}

interface Upload {
  id: number;
  name: string;
  /** 0 to 1 while sending; undefined once failed. */
  progress?: number;
  error?: string;
}

/**
 * The picker's messages from an action's field errors: each photo's own next to it, and the list's
 * message only when it is not just one of those repeated (validateForm also files `photos.1.alt`
 * under `photos`, so it would show twice).
 */
export function photoPickerErrors(
  errors: Record<string, string> | undefined,
  photos: readonly unknown[],
): Pick<PhotoPickerProps, "error" | "fieldErrors"> {
  const fieldErrors = photos.map((_, i) => errors?.[`photos.${i}.alt`] ?? errors?.[`photos.${i}.src`] ?? "");
  const ownError = fieldErrors.some(Boolean) ? undefined : errors?.photos;
  return { error: ownError, fieldErrors };
}

type Focus = { key: string; control: "up" | "down" | "remove" } | "add";

let nextKey = 0;
const keyed = (photo: { src: string; alt: string }): Photo => ({ key: `p${nextKey++}`, ...photo });

/** The small WebP rendition for the list's thumbnail (the master while an upload's renditions are made). */
const thumbnail = (src: string) => (hasRenditions(src) ? renditionUrl(src, 400, "webp") : src);

/** Sends one file to POST /admin/photos, reporting progress; resolves with the photo or the owner's message. */
function uploadPhoto(
  file: File,
  onProgress: (fraction: number) => void,
): Promise<{ photo: StoredPhoto } | { error: string }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/admin/photos");
    xhr.responseType = "json";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = xhr.response as { photo?: StoredPhoto; error?: string } | null;
      if (xhr.status === 201 && body?.photo) return resolve({ photo: body.photo });
      if (body?.error) return resolve({ error: body.error });
      if (xhr.status === 401)
        return resolve({
          error: `"${file.name}" was not uploaded: your sign-in has ended. Sign in again in another tab, then add it again.`,
        });
      if (xhr.status === 413) return resolve({ error: `"${file.name}" ${TOO_LARGE_MESSAGE}` });
      resolve({ error: `"${file.name}" was not uploaded (error ${xhr.status}). Try again.` });
    };
    xhr.onerror = () =>
      resolve({ error: `"${file.name}" was not uploaded: the connection failed. Check it and try again.` });
    const body = new FormData();
    body.set("file", file);
    xhr.send(body);
  });
}

/**
 * The photos of a product, event, post or the gallery, inside the owner's multipart form: an ordered
 * list with alt texts (sent as repeated `photoSrc`/`photoAlt` fields) and a file picker. With
 * JavaScript each picked or dropped file is uploaded on its own with a progress bar and joins the
 * list; without it the files are sent with the form (`photoFiles`) and stored by the action.
 */
export function PhotoPicker({ label = "Photos", initial, error, fieldErrors = [], max }: PhotoPickerProps) {
  const id = useId();
  const [photos, setPhotos] = useState<Photo[]>(() => initial.map(keyed));
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const controls = useRef(new Map<string, HTMLElement | null>());
  const fileInput = useRef<HTMLInputElement>(null);
  const [focus, setFocus] = useState<Focus | null>(null);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const uploadIds = useRef(0);

  useEffect(() => {
    if (!focus) return;
    const target = focus === "add" ? fileInput.current : controls.current.get(`${focus.key}:${focus.control}`);
    target?.focus();
    setFocus(null);
  }, [focus]);

  const full = max !== undefined && photos.length >= max;
  const helpId = `${id}-help`;
  const altHelpId = `${id}-alt-help`;
  const errorId = `${id}-error`;

  function move(index: number, by: -1 | 1) {
    const next = [...photos];
    const [photo] = next.splice(index, 1);
    next.splice(index + by, 0, photo!);
    setPhotos(next);
    // Focus stays on the moved photo; at an end of the list the other direction is the one left.
    const newIndex = index + by;
    const control = by === -1 ? (newIndex === 0 ? "down" : "up") : newIndex === next.length - 1 ? "up" : "down";
    setFocus({ key: photo!.key, control });
  }

  function remove(index: number) {
    const next = photos.filter((_, i) => i !== index);
    setPhotos(next);
    const neighbour = next[index] ?? next[index - 1];
    setFocus(neighbour ? { key: neighbour.key, control: "remove" } : "add");
  }

  function addFiles(picked: File[]) {
    const inFlight = uploads.filter((u) => !u.error).length;
    const files = max === undefined ? picked : picked.slice(0, Math.max(0, max - photos.length - inFlight));
    for (const file of files) {
      const upload: Upload = { id: uploadIds.current++, name: file.name, progress: 0 };
      if (file.size > MAX_PHOTO_BYTES) {
        setUploads((list) => [
          ...list,
          { ...upload, progress: undefined, error: `"${file.name}" ${TOO_LARGE_MESSAGE}` },
        ]);
        continue;
      }
      setUploads((list) => [...list, upload]);
      const update = (change: Partial<Upload>) =>
        setUploads((list) => list.map((u) => (u.id === upload.id ? { ...u, ...change } : u)));
      // One upload at a time: a phone's connection and the server's one image slot both prefer it.
      queue.current = queue.current.then(async () => {
        const result = await uploadPhoto(file, (progress) => update({ progress }));
        if ("photo" in result) {
          setUploads((list) => list.filter((u) => u.id !== upload.id));
          setPhotos((list) =>
            list.some((p) => p.src === result.photo.src) ? list : [...list, keyed({ src: result.photo.src, alt: "" })],
          );
        } else {
          update({ progress: undefined, error: result.error });
        }
      });
    }
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    addFiles([...event.dataTransfer.files]);
  }

  return (
    <fieldset className="space-y-4" aria-describedby={error ? `${helpId} ${errorId}` : helpId}>
      <legend className="text-base font-semibold">{label}</legend>
      <p id={helpId} className="text-sm text-ink-soft">
        The first photo is the card photo.
      </p>
      <p id={altHelpId} className="text-sm text-ink-soft">
        Each photo needs an alt text: a few words saying what it shows, read aloud to people who cannot see it and shown
        when it does not load. For example: &ldquo;Blue shweshwe wrap dress, front view&rdquo;.
      </p>
      {error ? (
        <p id={errorId} role="alert" className="text-sm font-semibold text-red-800">
          {error}
        </p>
      ) : null}

      {photos.length ? (
        <ol className="space-y-3">
          {photos.map((photo, index) => {
            const position = index + 1;
            const altId = `${id}-alt-${photo.key}`;
            const altError = fieldErrors[index];
            return (
              <li
                key={photo.key}
                className="flex flex-wrap items-start gap-3 rounded-2xl bg-cream p-3 ring-1 ring-ink/10"
              >
                <img
                  src={thumbnail(photo.src)}
                  alt=""
                  width={80}
                  height={80}
                  loading="lazy"
                  decoding="async"
                  className="h-20 w-20 shrink-0 rounded-xl object-cover"
                />
                <div className="min-w-48 flex-1">
                  <input type="hidden" name="photoSrc" value={photo.src} />
                  <label htmlFor={altId} className="block text-sm font-semibold">
                    Alt text<span className="sr-only"> for photo {position}</span>
                  </label>
                  <input
                    id={altId}
                    name="photoAlt"
                    defaultValue={photo.alt}
                    required
                    maxLength={PHOTO_ALT_MAX}
                    aria-invalid={altError ? true : undefined}
                    aria-describedby={altError ? `${altId}-error ${altHelpId}` : altHelpId}
                    className="mt-1 block min-h-11 w-full rounded-xl border border-ink/30 bg-white px-3 py-2"
                  />
                  {altError ? (
                    <p id={`${altId}-error`} className="mt-1 text-sm font-semibold text-red-800">
                      {altError}
                    </p>
                  ) : null}
                </div>
                <div className="flex flex-wrap gap-2">
                  <button
                    type="button"
                    ref={(el) => void controls.current.set(`${photo.key}:up`, el)}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                    className="btn-outline min-h-11 px-4 py-1.5 text-sm"
                  >
                    Move up<span className="sr-only"> photo {position}</span>
                  </button>
                  <button
                    type="button"
                    ref={(el) => void controls.current.set(`${photo.key}:down`, el)}
                    disabled={index === photos.length - 1}
                    onClick={() => move(index, 1)}
                    className="btn-outline min-h-11 px-4 py-1.5 text-sm"
                  >
                    Move down<span className="sr-only"> photo {position}</span>
                  </button>
                  <button
                    type="button"
                    ref={(el) => void controls.current.set(`${photo.key}:remove`, el)}
                    onClick={() => remove(index)}
                    className="btn-outline min-h-11 px-4 py-1.5 text-sm"
                  >
                    Remove<span className="sr-only"> photo {position}</span>
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="text-sm text-ink-soft">No photos yet.</p>
      )}

      {uploads.length ? (
        <ul className="space-y-2" aria-label="Uploads">
          {uploads.map((upload) => (
            <li key={upload.id} className="text-sm">
              {upload.error ? (
                <p role="alert" className="flex flex-wrap items-center gap-2 font-semibold text-red-800">
                  {upload.error}
                  <button
                    type="button"
                    onClick={() => setUploads((list) => list.filter((u) => u.id !== upload.id))}
                    className="btn-outline min-h-11 px-3 py-1 text-sm"
                  >
                    Dismiss<span className="sr-only"> the message about {upload.name}</span>
                  </button>
                </p>
              ) : (
                <label className="flex flex-wrap items-center gap-2">
                  <span className="break-all">{upload.name}</span>
                  <progress value={upload.progress ?? 0} max={1} className="h-2 w-40 accent-ink" />
                </label>
              )}
            </li>
          ))}
        </ul>
      ) : null}

      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`rounded-2xl border-2 border-dashed p-4 ${dragging ? "border-ink bg-honey-light" : "border-ink/30 bg-white"}`}
      >
        <label htmlFor={`${id}-files`} className="block text-sm font-semibold">
          Add photos
        </label>
        <p id={`${id}-files-help`} className="text-sm text-ink-soft">
          Pick or drop JPEG, PNG, WebP, AVIF or HEIC photos, up to 20 MB each
          {max !== undefined ? `, ${max} at most` : ""}.
        </p>
        <input
          ref={fileInput}
          id={`${id}-files`}
          type="file"
          name="photoFiles"
          multiple
          accept={PHOTO_ACCEPT}
          disabled={full}
          aria-describedby={`${id}-files-help`}
          onChange={(event) => {
            const files = [...(event.currentTarget.files ?? [])];
            // Uploaded one by one now, so the form must not send the bytes again.
            event.currentTarget.value = "";
            addFiles(files);
          }}
          className={
            "mt-2 block w-full text-sm file:mr-3 file:min-h-11 file:rounded-full file:border-2 " +
            "file:border-ink file:bg-white file:px-4 file:font-semibold"
          }
        />
      </div>
    </fieldset>
  );
}
