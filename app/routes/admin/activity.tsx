import { Link } from "react-router";
import { listAudit } from "~/admin/audit.server";
import { fieldLabel, summaryWords, valueWords } from "~/admin/audit-words";
import { formatDateTime } from "~/admin/format-date";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/activity";

export async function loader({ request, context }: Route.LoaderArgs) {
  const before = Number(new URL(request.url).searchParams.get("before") ?? "");
  return listAudit(context.db, Number.isSafeInteger(before) && before > 0 ? before : null);
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
                  <p className="min-w-0 font-semibold break-words">{summaryWords(e.entity, e.summary)}</p>
                  <p className="text-sm text-ink-soft">
                    <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                  </p>
                </div>
                {e.before && e.after && fields.length ? (
                  <dl className="mt-2 space-y-1 text-sm">
                    {fields.map((f) => (
                      <div key={f} className="break-words">
                        <dt className="inline font-semibold">{fieldLabel(e.entity, f)}: </dt>
                        <dd className="inline text-ink-soft">
                          {valueWords(f, e.before?.[f])} → {valueWords(f, e.after?.[f])}
                        </dd>
                      </div>
                    ))}
                  </dl>
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
  seo({
    title: "Activity",
    description: "The admin's audit log.",
    path: "/admin/activity",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
