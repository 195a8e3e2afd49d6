import { data, Form, useNavigation, useSearchParams, useSubmit } from "react-router";
import { type DashboardData, loadDashboardData } from "~/analytics/dashboard.server";
import { PERIODS, parsePeriod, periodStartDay, saDayStart } from "~/analytics/days";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { ActionToast, type ToastMessage } from "~/components/ui/toast";
import { seo, siteUrlFrom } from "~/lib/seo";
import { activeMemberFigures } from "~/memberships/members-admin.server";
import { loadTodoList } from "~/dashboard/todo.server";
import { southAfricanDay } from "~/memberships/periods";
import { TodoList } from "~/components/admin/TodoList";
import { soldByOption } from "~/catalog/option-sales.server";
import { DashboardBody } from "~/components/admin/DashboardBody";
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

/** One object for every render: a new one each time would show the toast again on each re-render. */
const LOAD_FAILED: ToastMessage = {
  title: "Error loading analytics",
  description: "Failed to fetch analytics data",
  variant: "destructive",
};

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
