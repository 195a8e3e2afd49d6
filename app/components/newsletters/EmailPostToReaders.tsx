import { Form, Link } from "react-router";
import { formatDateTime } from "~/admin/format-date";

const readers = (n: number) => (n === 1 ? "1 reader" : `${n} readers`);

/** Who a post's email reaches, said the way the segment picker says its rules. */
function whoItReaches(audience: string, reach: number | null): string {
  const count = reach === null ? "" : ` (${readers(reach)} today)`;
  return audience === "public"
    ? `A post for everyone goes to the subscribers who asked for our news${count}.`
    : `It goes to the active members of the post's plans, with its whole text: their plan includes our posts${count}. ` +
        "A member who refused our emails is left out.";
}

/** The box on the Publish form: publishing then emails the post to its readers through the newsletter sender. */
export function EmailReadersBox({ audience, reach }: { audience: string; reach: number | null }) {
  return (
    <div>
      <div className="flex min-h-11 items-center gap-3">
        <input
          id="email-readers"
          name="emailReaders"
          type="checkbox"
          value="on"
          aria-describedby="email-readers-hint"
          className="h-5 w-5 shrink-0 accent-ink"
        />
        <label htmlFor="email-readers" className="font-semibold">
          Email this post to its readers when published
        </label>
      </div>
      <p id="email-readers-hint" className="mt-1 text-sm text-ink-soft">
        {reach === null
          ? "Members of its plans receive the whole text; a post for everyone goes to the subscribers who asked " +
            "for our news. Each email offers the one-click unsubscribe."
          : `${whoItReaches(audience, reach)} Each email offers the one-click unsubscribe.`}
      </p>
    </div>
  );
}

/** On a published post: email it to its readers once, or see the newsletter that did. */
export function EmailReadersButton({
  audience,
  reach,
  emailed,
  error,
  busy,
}: {
  audience: string;
  reach: number;
  emailed: { id: number; startedAt: Date | string | null } | null;
  error?: string;
  busy: boolean;
}) {
  return (
    <section aria-labelledby="email-readers-heading" className="card max-w-3xl p-4 sm:p-6">
      <h2 id="email-readers-heading" className="font-display text-xl">
        Email to its readers
      </h2>
      {emailed ? (
        <p className="mt-2">
          Emailed
          {emailed.startedAt ? ` on ${formatDateTime(emailed.startedAt)}` : ""}.{" "}
          <Link to={`/admin/newsletters/${emailed.id}`} className="link">
            See how it went
          </Link>
        </p>
      ) : (
        <Form method="post" className="mt-2">
          <p id="email-readers-rule" className="text-ink-soft">
            {whoItReaches(audience, reach)}
          </p>
          {error ? (
            <p role="alert" className="mt-2 font-semibold text-red-800">
              {error}
            </p>
          ) : null}
          <button
            type="submit"
            name="intent"
            value="email-readers"
            className="btn-primary mt-3"
            aria-describedby="email-readers-rule"
            disabled={busy}
          >
            Email this post to its readers
          </button>
        </Form>
      )}
    </section>
  );
}
