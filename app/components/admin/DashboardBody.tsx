import { Link } from "react-router";
import { formatDateTime } from "~/admin/format-date";
import { mailtoHref } from "~/admin/mailto";
import type { DashboardData } from "~/analytics/dashboard.server";
import { activityLabel, pageLabel, relativeTime } from "~/analytics/labels";
import type { OptionSales } from "~/catalog/option-sales.server";
import { DailyChart } from "~/components/admin/DailyChart";
import { DataList } from "~/components/admin/DataList";
import { FunnelPanel } from "~/components/admin/FunnelPanel";
import { Money } from "~/components/admin/Money";
import { OptionSalesPanel } from "~/components/admin/OptionSalesPanel";
import { Panel, StatusBadge } from "~/components/admin/Panel";
import { formatRand } from "~/lib/money";

const formatDate = formatDateTime;
const thClass = "border-b border-ink/10 px-3 py-2 font-semibold";
const tdClass = "border-b border-ink/5 px-3 py-2 align-top";

/** The dashboard's figures for the period: counters, charts, funnel, members, sales by option, recent activity. */
export function DashboardBody({
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
