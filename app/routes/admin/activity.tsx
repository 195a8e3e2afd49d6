import { Link } from "react-router";
import { listAudit } from "~/admin/audit.server";
import { formatDateTime } from "~/admin/format-date";
import { requireAdmin } from "~/admin/session.server";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/activity";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const before = Number(new URL(request.url).searchParams.get("before") ?? "");
  return listAudit(context.db, Number.isSafeInteger(before) && before > 0 ? before : null);
}

/** A short, readable form of one field's value in the before/after lines. */
function show(value: unknown): string {
  if (value === null || value === undefined || value === "") return "(empty)";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

export default function AdminActivity({ loaderData }: Route.ComponentProps) {
  const { entries, nextBeforeId } = loaderData;
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Activity" />
      <p className="text-ink-soft">Every change made in the admin, newest first.</p>
      {entries.length === 0 ? (
        <p className="text-ink-soft">No changes yet.</p>
      ) : (
        <ol className="space-y-3">
          {entries.map((e) => {
            const fields = Object.keys({ ...(e.before ?? {}), ...(e.after ?? {}) });
            return (
              <li key={e.id} className="card p-4">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <p className="font-semibold break-words">{e.summary}</p>
                  <p className="text-sm text-ink-soft">
                    <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                  </p>
                </div>
                {e.before && e.after && fields.length ? (
                  <details className="mt-2 text-sm">
                    <summary className="min-h-11 cursor-pointer py-2 font-semibold">Before and after</summary>
                    <dl className="space-y-2">
                      {fields.map((f) => (
                        <div key={f}>
                          <dt className="font-semibold">{f}</dt>
                          <dd className="break-words text-ink-soft">
                            {show(e.before?.[f])} → {show(e.after?.[f])}
                          </dd>
                        </div>
                      ))}
                    </dl>
                  </details>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
      {nextBeforeId ? (
        <Link to={`?before=${nextBeforeId}`} className="btn-outline min-h-11 px-4 py-1.5 text-sm">
          Older changes
        </Link>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({ title: "Activity", description: "The admin's audit log.", path: "/admin/activity", siteUrl: siteUrlFrom(matches), noindex: true });
