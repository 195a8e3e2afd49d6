import { data, Form, Link, useNavigation, useSearchParams, useSubmit } from "react-router";
import { formatDateTime } from "~/admin/format-date";
import { mailtoHref } from "~/admin/mailto";
import { type DashboardData, loadDashboardData } from "~/analytics/dashboard.server";
import { PERIODS, parsePeriod, periodStartDay, saDayStart } from "~/analytics/days";
import { activityLabel, pageLabel, relativeTime } from "~/analytics/labels";
import { DailyChart } from "~/components/admin/DailyChart";
import { DataList } from "~/components/admin/DataList";
import { Money } from "~/components/admin/Money";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { Panel, StatusBadge } from "~/components/admin/Panel";
import { ActionToast, type ToastMessage } from "~/components/ui/toast";
import { formatRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import { activeMemberFigures } from "~/memberships/members-admin.server";
import { loadTodoList } from "~/dashboard/todo.server";
import { southAfricanDay } from "~/memberships/periods";
import { TodoList } from "~/components/admin/TodoList";
import { FunnelPanel } from "~/components/admin/FunnelPanel";
import { OptionSalesPanel } from "~/components/admin/OptionSalesPanel";
import { soldByOption, type OptionSales } from "~/catalog/option-sales.server";
import type { Route } from "./+types/dashboard";

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const period = parsePeriod(url.searchParams.get("period"));
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  const now = context.clock.now();
  let dashboard: DashboardData | null = null;
  try {
    dashboard = await loadDashboardData(context.db, {
      period,
      now,
      ownHosts: [url.hostname, new URL(context.config.siteUrl).hostname],
    });
  } catch (error) {
    console.error("Dashboard data failed to load:", error);
  }
  const since = periodStartDay(period, now);
  const [todo, memberFigures, optionSales] = await Promise.all([
    loadTodoList(context.db, now).catch((error: unknown) => {
      console.error("The to-do list failed to load:", error);
      return null;
    }),
    activeMemberFigures(context.db).catch((error: unknown) => {
      console.error("Member figures failed to load:", error);
      return null;
    }),
    soldByOption(context.db, since ? saDayStart(since) : null).catch((error: unknown) => {
      console.error("Sales by size and colour failed to load:", error);
      return [];
    }),
  ]);
  return data(
    { dashboard, period, now: now.toISOString(), today: southAfricanDay(now), todo, memberFigures, optionSales },
    { headers },
  );
}

const formatDate = formatDateTime;
/** One object for every render: a new one each time would show the toast again on each re-render. */
const LOAD_FAILED: ToastMessage = {
  title: "Error loading analytics",
  description: "Failed to fetch analytics data",
  variant: "destructive",
};

const thClass = "border-b border-ink/10 px-3 py-2 font-semibold";
const tdClass = "border-b border-ink/5 px-3 py-2 align-top";

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { dashboard, period, now, today, todo, memberFigures, optionSales } = loaderData;
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const submit = useSubmit();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/admin";
  const failed = dashboard ? null : LOAD_FAILED;
  const exportQuery = `?period=${encodeURIComponent(params.get("period") ?? period)}`;

  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Admin Dashboard" />

      {todo ? <TodoList todo={todo} today={today} /> : null}

      <Form
        method="get"
        action="/admin"
        className="flex flex-wrap items-end gap-3"
        onChange={(e) => submit(e.currentTarget)}
      >
        <div>
          <label htmlFor="period" className="block text-sm font-semibold">
            Period
          </label>
          <select
            id="period"
            name="period"
            defaultValue={period}
            key={period}
            className="mt-1 min-h-11 rounded-xl border border-ink/30 bg-white px-3"
          >
            {PERIODS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
        <noscript>
          <button type="submit" className="btn-outline">
            Show
          </button>
        </noscript>
        <p aria-live="polite" className="min-h-11 py-2 text-ink-soft">
          {loading ? "Loading analytics..." : ""}
        </p>
      </Form>

      {!dashboard ? (
        <div role="alert" className="card p-6">
          <h2 className="text-xl font-semibold">Error loading analytics</h2>
          <p className="mt-1 text-ink-soft">Failed to fetch analytics data</p>
        </div>
      ) : (
        <DashboardBody
          dashboard={dashboard}
          period={period}
          now={new Date(now)}
          exportQuery={exportQuery}
          memberFigures={memberFigures}
          optionSales={optionSales}
        />
      )}
      <ActionToast message={failed} />
    </div>
  );
}

function DashboardBody({
  dashboard,
  period,
  now,
  exportQuery,
  memberFigures,
  optionSales,
}: {
  dashboard: DashboardData;
  period: string;
  now: Date;
  exportQuery: string;
  memberFigures: { active: number; mrrCents: number; atRisk: number; atRiskCents: number } | null;
  optionSales: OptionSales;
}) {
  const { counters } = dashboard;
  const exportLink = (kind: string, label: string) => (
    <a href={`/admin/export/${kind}${exportQuery}`} className="btn-outline min-h-11 px-4 py-1.5 text-sm" download>
      Export CSV<span className="sr-only"> of {label}</span>
    </a>
  );
  return (
    <>
      <dl className="grid grid-cols-2 gap-4 lg:grid-cols-3">
        {[
          ["Total Visitors", counters.visitors],
          ["Page Views", counters.pageViews],
          ["Product Views", counters.productViews],
          ["Event Views", counters.eventViews],
        ].map(([label, value]) => (
          <div key={label} className="card p-4 sm:p-5">
            <dt className="text-sm font-semibold text-ink-soft">{label}</dt>
            <dd
              className="mt-1 font-display text-3xl font-semibold"
              data-testid={`counter-${String(label).toLowerCase().replace(/ /g, "-")}`}
            >
              {Number(value).toLocaleString("en-ZA")}
            </dd>
          </div>
        ))}
        {memberFigures ? (
          <>
            <div className="card p-4 sm:p-5">
              <dt className="text-sm font-semibold text-ink-soft">Active members</dt>
              <dd className="mt-1 font-display text-3xl font-semibold">
                <Link to="/admin/members?status=active" className="link">
                  <span data-testid="counter-active-members">{memberFigures.active.toLocaleString("en-ZA")}</span>
                  <span className="sr-only"> active members: show them</span>
                </Link>
              </dd>
            </div>
            <div className="card p-4 sm:p-5">
              <dt className="text-sm font-semibold text-ink-soft">Monthly recurring revenue</dt>
              <dd className="mt-1 break-words font-display text-2xl font-semibold sm:text-3xl">
                <Link to="/admin/members" className="link">
                  <span data-testid="counter-monthly-recurring-revenue">{formatRand(memberFigures.mrrCents)}</span>
                  <span className="sr-only"> from active and due members: show the members</span>
                </Link>
              </dd>
              {memberFigures.atRisk ? (
                <dd className="mt-1 text-sm font-semibold text-red-800" data-testid="counter-mrr-at-risk">
                  <span className="whitespace-nowrap">{formatRand(memberFigures.atRiskCents)}</span> at risk:{" "}
                  {memberFigures.atRisk.toLocaleString("en-ZA")} due
                </dd>
              ) : null}
            </div>
          </>
        ) : null}
      </dl>

      <Panel
        title="Contact Form Submissions"
        period={period}
        actions={exportLink("contacts", "contact form submissions")}
      >
        <DataList
          rows={dashboard.contacts}
          rowKey={(c) => c.id}
          caption="Contact form submissions"
          empty="No contact form submissions yet"
          columns={[
            { header: "Date", cell: (c) => formatDate(c.createdAt) },
            { header: "Name", primary: true, cell: (c) => c.name },
            {
              header: "Email",
              cell: (c) => (
                <a className="link break-all" href={mailtoHref(c.email)}>
                  {c.email}
                </a>
              ),
            },
            { header: "Subject", cell: (c) => c.subject },
            {
              header: "Message",
              className: "max-w-md break-words",
              cell: (c) => <span className="whitespace-pre-wrap">{c.message}</span>,
            },
          ]}
        />
      </Panel>

      <Panel title="Recent Checkouts" period={period} actions={exportLink("orders", "checkouts")}>
        <DataList
          rows={dashboard.checkouts}
          rowKey={(o) => o.id}
          caption="Recent checkouts"
          empty="No checkouts found yet"
          columns={[
            { header: "Date", cell: (o) => formatDate(o.createdAt) },
            {
              header: "Customer",
              cell: (o) => (
                <>
                  <div className="font-semibold">{o.customerName}</div>
                  <div className="break-all text-ink-soft">{o.customerEmail}</div>
                </>
              ),
            },
            {
              header: "Item",
              primary: true,
              cell: (o) => (
                <Link to={`/admin/orders/${o.id}`} className="link">
                  {o.itemName}
                </Link>
              ),
            },
            { header: "Amount", cell: (o) => <Money cents={o.amountCents} /> },
            { header: "Status", cell: (o) => <StatusBadge status={o.status} /> },
            { header: "Type", cell: (o) => o.orderType },
          ]}
        />
      </Panel>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Recent Activity" period={period} actions={exportLink("events", "analytics events")}>
          {dashboard.recentActivity.length === 0 ? (
            <p className="text-ink-soft">No activity yet</p>
          ) : (
            <ul className="divide-y divide-ink/5">
              {dashboard.recentActivity.map((a) => (
                <li key={a.id} className="flex flex-wrap items-baseline justify-between gap-2 py-2 text-sm">
                  <span>
                    <span className="font-semibold">{activityLabel(a.eventType)}</span>{" "}
                    <span className="text-ink-soft">{a.itemName ?? a.pagePath}</span>
                  </span>
                  <span className="text-ink-soft">{relativeTime(new Date(a.createdAt), now)}</span>
                </li>
              ))}
            </ul>
          )}
        </Panel>

        <Panel title="Popular Pages" period={period}>
          {dashboard.popularPages.length === 0 ? (
            <p className="text-ink-soft">No page views yet</p>
          ) : (
            <table className="w-full text-left text-sm">
              <thead>
                <tr>
                  <th scope="col" className={thClass}>
                    Page
                  </th>
                  <th scope="col" className={thClass}>
                    Visits
                  </th>
                  <th scope="col" className={thClass}>
                    Share
                  </th>
                </tr>
              </thead>
              <tbody>
                {dashboard.popularPages.map((page) => (
                  <tr key={page.path}>
                    {/* A long path (a payment page's) wraps rather than widen the page at 390 px. */}
                    <td className={`${tdClass} wrap-anywhere`}>{pageLabel(page.path)}</td>
                    <td className={tdClass}>{page.visits.toLocaleString("en-ZA")}</td>
                    <td className={tdClass}>
                      <div className="flex items-center gap-2">
                        <div className="h-2 w-24 overflow-hidden rounded-full bg-cream-deep" aria-hidden="true">
                          <div className="h-full bg-honey-dark" style={{ width: `${page.percent}%` }} />
                        </div>
                        <span>{page.percent}%</span>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Panel>
      </div>

      <Panel title="Visitors and Page Views" period={period}>
        <DailyChart points={dashboard.daily} />
      </Panel>

      <div className="grid gap-6 lg:grid-cols-2">
        <FunnelPanel title="Checkout Funnel" steps={dashboard.funnel} period={period} overall="Overall conversion" />

        <Panel title="Top Referrers" period={period}>
          {dashboard.referrers.length === 0 ? (
            <p className="text-ink-soft">No referrers yet</p>
          ) : (
            <table className="w-full text-left text-sm">
              <thead>
                <tr>
                  <th scope="col" className={thClass}>
                    Site
                  </th>
                  <th scope="col" className={thClass}>
                    Sessions
                  </th>
                </tr>
              </thead>
              <tbody>
                {dashboard.referrers.map((r) => (
                  <tr key={r.host}>
                    <td className={tdClass}>{r.host}</td>
                    <td className={tdClass}>{r.sessions.toLocaleString("en-ZA")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Panel>
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <FunnelPanel
          title="Bag Funnel"
          steps={dashboard.bagFunnel}
          period={period}
          overall="Bags paid of those added to"
        />
        {optionSales.length > 0 ? <OptionSalesPanel sales={optionSales} period={period} /> : null}
      </div>
    </>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Admin Dashboard",
    description: "Analytics, checkouts and contact submissions.",
    path: "/admin",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });

/** A failed refresh in the browser (network or server error) lands here; a full load retries. */
export function ErrorBoundary() {
  return (
    <section className={adminPageClass}>
      <div role="alert" className="card p-6">
        <h1 className="text-2xl font-semibold">Error loading analytics</h1>
        <p className="mt-1 text-ink-soft">Failed to fetch analytics data</p>
        <a href="/admin" className="btn-primary mt-4">
          Try again
        </a>
      </div>
    </section>
  );
}
