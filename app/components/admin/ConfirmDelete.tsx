import { Form, Link } from "react-router";
import { adminPageClass } from "./AdminShell";

/**
 * A destructive action behind a confirm step that works without JavaScript: the owner opens the
 * disclosure, reads what will happen, and presses the named button (intent=delete).
 */
export function ConfirmDelete({ summary, explanation, name }: { summary: string; explanation: string; name: string }) {
  return (
    <details className="card max-w-3xl p-4 sm:p-6">
      <summary className="min-h-11 cursor-pointer py-2 font-semibold">{summary}</summary>
      <p className="mt-2 text-ink-soft">{explanation}</p>
      <Form method="post" className="mt-4">
        <button
          type="submit"
          name="intent"
          value="delete"
          className="min-h-11 rounded-full bg-red-800 px-5 font-semibold text-white"
        >
          Yes, delete {name}
        </button>
      </Form>
    </details>
  );
}

/** An edit page's error screen: the thing is gone (deleted, or a wrong address), and the way back. */
export function AdminNotFound({ title, backTo, backLabel }: { title: string; backTo: string; backLabel: string }) {
  return (
    <div className={adminPageClass}>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-ink-soft">It may have been deleted.</p>
      <Link to={backTo} className="btn-primary">
        {backLabel}
      </Link>
    </div>
  );
}
