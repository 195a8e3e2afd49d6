import { useEffect, useRef } from "react";
import { Link, useFetcher } from "react-router";
import { DEFAULT_POST_AUTHOR, DEFAULT_POST_CATEGORY, REQUIRED_POST_FIELDS } from "~/blog/post-options";
import { ActionToast, type ToastMessage } from "~/components/ui/toast";

const fieldClass = "mt-1 block min-h-11 w-full rounded-xl border border-ink/30 bg-white px-3 py-2";

/**
 * The admin's "New Post" dialog (a native <dialog>). Without JavaScript, "New Post" is a link to
 * /blog?new=1, which renders the dialog open and posts the form normally. As the spec says, a
 * missing title, excerpt or content means nothing happens and no message is shown.
 */
export function NewPostDialog({ openOnLoad }: { openOnLoad: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const fetcher = useFetcher<{ ok: boolean; toast?: ToastMessage }>();

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) {
      form.current?.reset();
      dialog.current?.close();
    }
  }, [fetcher.state, fetcher.data]);

  useEffect(() => {
    const d = dialog.current;
    // The server rendered it open (non-modal); after hydration make it a proper modal.
    if (openOnLoad && d && !d.matches(":modal")) {
      d.close();
      d.showModal();
    }
  }, [openOnLoad]);

  const open = (event: React.MouseEvent) => {
    event.preventDefault();
    dialog.current?.showModal();
  };

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const values = new FormData(event.currentTarget);
    if (REQUIRED_POST_FIELDS.some((name) => !String(values.get(name) ?? "").trim())) {
      event.preventDefault();
    }
  };

  const publishing = fetcher.state !== "idle";
  return (
    <>
      <Link to="/blog?new=1" onClick={open} className="btn-primary" preventScrollReset>
        New Post
      </Link>
      <dialog
        ref={dialog}
        open={openOnLoad || undefined}
        aria-labelledby="new-post-title"
        className="m-auto w-[min(40rem,calc(100vw-2rem))] rounded-3xl bg-cream p-0 text-ink shadow-xl backdrop:bg-ink/60"
      >
        <fetcher.Form ref={form} method="post" action="/blog" onSubmit={onSubmit} className="space-y-4 p-6" noValidate>
          <h2 id="new-post-title" className="text-2xl font-semibold">
            New Post
          </h2>
          <input type="hidden" name="intent" value="publish" />
          <div>
            <label htmlFor="post-title" className="block font-semibold">
              Title
            </label>
            <input id="post-title" name="title" aria-required="true" maxLength={200} className={fieldClass} />
          </div>
          <div>
            <label htmlFor="post-excerpt" className="block font-semibold">
              Excerpt
            </label>
            <textarea
              id="post-excerpt"
              name="excerpt"
              aria-required="true"
              maxLength={500}
              rows={2}
              className={fieldClass}
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor="post-author" className="block font-semibold">
                Author
              </label>
              <input
                id="post-author"
                name="author"
                defaultValue={DEFAULT_POST_AUTHOR}
                maxLength={100}
                className={fieldClass}
              />
            </div>
            <div>
              <label htmlFor="post-category" className="block font-semibold">
                Category
              </label>
              <input
                id="post-category"
                name="category"
                defaultValue={DEFAULT_POST_CATEGORY}
                maxLength={60}
                className={fieldClass}
              />
            </div>
          </div>
          <div>
            <label htmlFor="post-content" className="block font-semibold">
              Content
            </label>
            <textarea id="post-content" name="content" aria-required="true" rows={10} className={fieldClass} />
            <p className="mt-1 text-sm text-ink-soft">Plain text or Markdown.</p>
          </div>
          <div className="flex flex-wrap justify-end gap-3">
            <button
              type="button"
              className="btn-outline"
              onClick={() => {
                form.current?.reset();
                dialog.current?.close();
              }}
            >
              Cancel
            </button>
            <button type="submit" className="btn-primary" disabled={publishing}>
              Publish Post
            </button>
          </div>
        </fetcher.Form>
      </dialog>
      <ActionToast message={fetcher.data?.toast} />
    </>
  );
}
