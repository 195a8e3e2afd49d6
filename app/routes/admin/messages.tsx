import { Form, useSearchParams } from "react-router";
import { formatDateTime } from "~/admin/format-date";
import { mailtoHref } from "~/admin/mailto";
import { requireAdmin } from "~/admin/session.server";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { Pagination } from "~/components/admin/Pagination";
import { listMessages } from "~/contact/messages-admin.server";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/messages";
import { pageParam, textParam } from "~/admin/list-query";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const search = new URL(request.url).searchParams;
  const q = textParam(search, "q");
  return { q, ...(await listMessages(context.db, { q, page: pageParam(search) })) };
}

export default function AdminMessages({ loaderData }: Route.ComponentProps) {
  const { messages, q, page, pages, total } = loaderData;
  const [search] = useSearchParams();
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Messages">
        <a href="/admin/export/contacts?period=all" className="btn-outline min-h-11 px-4 py-1.5 text-sm" download>
          Export CSV<span className="sr-only"> of all messages</span>
        </a>
      </AdminPageHeader>
      <Form method="get" role="search" aria-label="Messages" className="card flex flex-wrap items-end gap-3 p-4">
        <div className="min-w-0 flex-1 basis-48">
          <label htmlFor="message-search" className="block text-sm font-semibold">
            Search
          </label>
          <input id="message-search" name="q" type="search" defaultValue={q} placeholder="Name, email, subject or words" className="mt-1 block min-h-11 w-full rounded-xl border border-ink/30 bg-white px-3" />
        </div>
        <button type="submit" className="btn-outline min-h-11 px-4 py-1.5">
          Search
        </button>
      </Form>
      <p className="text-sm text-ink-soft" aria-live="polite">
        {total === 1 ? "1 message" : `${total} messages`}
      </p>
      {messages.length === 0 ? (
        <p className="text-ink-soft">{q ? "No messages match." : "No contact form submissions yet"}</p>
      ) : (
        <ul className="space-y-3">
          {messages.map((m) => (
            <li key={m.id} className="card p-4">
              <article aria-labelledby={`message-${m.id}`}>
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <h2 id={`message-${m.id}`} className="text-lg font-semibold break-words">
                    {m.subject}
                  </h2>
                  <p className="text-sm text-ink-soft">{formatDateTime(m.createdAt)}</p>
                </div>
                <p className="mt-1 text-sm break-words">
                  {m.name} · <a className="link" href={mailtoHref(m.email)}>{m.email}</a>
                </p>
                <p className="mt-2 whitespace-pre-wrap break-words">{m.message}</p>
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
  seo({ title: "Messages", description: "Contact form messages.", path: "/admin/messages", siteUrl: siteUrlFrom(matches), noindex: true });
