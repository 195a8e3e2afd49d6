import { data, Form, redirect, useNavigation, useSearchParams } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { textFields, validateForm } from "~/lib/form";
import { formatDateTime } from "~/admin/format-date";
import { pageParam, textParam } from "~/admin/list-query";
import { mailtoHref } from "~/admin/mailto";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { AdminFilterForm, FilterSearch, FilterSelect, FilterSubmit } from "~/components/admin/FilterForm";
import { Pagination } from "~/components/admin/Pagination";
import { answeredSchema } from "~/contact/answered-schema";
import { listMessages, markAnswered, readMessageState } from "~/contact/messages-admin.server";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/messages";

export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  const q = textParam(search, "q");
  const state = readMessageState(textParam(search, "state", 20));
  return { q, state, ...(await listMessages(context.db, { q, state, page: pageParam(search) })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const checked = validateForm(answeredSchema, textFields(await request.formData(), ["id", "answered"] as const));
  if (!checked.ok)
    return data(
      { error: checked.fieldErrors.id ?? checked.fieldErrors.answered ?? "Reload the page and try again." },
      { status: 400 },
    );
  const answered = checked.data.answered === "yes";
  if (!(await markAnswered(context.db, Number(checked.data.id), answered, context.clock.now()))) {
    return data({ error: "That message does not exist. Reload the page and try again." }, { status: 404 });
  }
  // Back to the same filtered page, so the next message to answer is where her thumb is.
  const url = new URL(request.url);
  return redirect(`/admin/messages${url.search}`, {
    headers: { "Set-Cookie": setToastCookie({ title: answered ? "Marked answered" : "Marked not answered" }) },
  });
}

const STATE_CHOICES = [
  { value: "", label: "All messages" },
  { value: "unanswered", label: "Not answered" },
  { value: "answered", label: "Answered" },
];
export default function AdminMessages({ loaderData, actionData }: Route.ComponentProps) {
  const { messages, q, state, page, pages, total } = loaderData;
  const [search] = useSearchParams();
  const busy = useNavigation().state === "submitting";
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Messages">
        <a href="/admin/export/contacts?period=all" className="btn-outline min-h-11 px-4 py-1.5 text-sm" download>
          Export CSV<span className="sr-only"> of all messages</span>
        </a>
      </AdminPageHeader>
      <AdminFilterForm label="Messages">
        <FilterSearch id="message-search" defaultValue={q} placeholder="Name, email, subject or words" />
        <FilterSelect
          id="message-state"
          name="state"
          label="Answered"
          defaultValue={state}
          resetKey={state}
          choices={STATE_CHOICES}
          className="min-w-0 basis-40"
        />
        <FilterSubmit label="Search" />
      </AdminFilterForm>
      {actionData?.error ? (
        <p role="alert" className="font-semibold text-red-800">
          {actionData.error}
        </p>
      ) : null}
      <p className="text-sm text-ink-soft" aria-live="polite">
        {total === 1 ? "1 message" : `${total} messages`}
      </p>
      {messages.length === 0 ? (
        <p className="text-ink-soft">{q || state ? "No messages match." : "No contact form submissions yet"}</p>
      ) : (
        <ul className="space-y-3">
          {messages.map((m) => (
            <li key={m.id} className="card p-4">
              <article aria-labelledby={`message-${m.id}`}>
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <h2 id={`message-${m.id}`} className="min-w-0 text-lg font-semibold break-words">
                    {m.subject}
                  </h2>
                  <p className="text-sm text-ink-soft">{formatDateTime(m.createdAt)}</p>
                </div>
                <p className="mt-1 text-sm break-words">
                  {m.name} ·{" "}
                  <a className="link break-all" href={mailtoHref(m.email)}>
                    {m.email}
                  </a>
                </p>
                <p className="mt-2 whitespace-pre-wrap break-words">{m.message}</p>
                <Form method="post" className="mt-3 flex flex-wrap items-center gap-3">
                  <input type="hidden" name="id" value={m.id} />
                  <input type="hidden" name="answered" value={m.answeredAt ? "no" : "yes"} />
                  {m.answeredAt ? (
                    <p className="text-sm text-ink-soft">Answered {formatDateTime(m.answeredAt)}</p>
                  ) : (
                    <p className="text-sm font-semibold">Not answered yet</p>
                  )}
                  <button type="submit" className="btn-outline min-h-11 px-4 py-1.5 text-sm" disabled={busy}>
                    {m.answeredAt ? "Mark not answered" : "Mark answered"}
                    <span className="sr-only">: {m.subject}</span>
                  </button>
                </Form>
              </article>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pages={pages} search={search} label="Messages" />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Messages",
    description: "Contact form messages.",
    path: "/admin/messages",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
