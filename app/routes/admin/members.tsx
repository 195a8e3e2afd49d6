import { Link, useSearchParams } from "react-router";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { DataList } from "~/components/admin/DataList";
import { AdminFilterForm, FilterSearch, FilterSelect, FilterSubmit } from "~/components/admin/FilterForm";
import { MemberStatusBadge } from "~/components/admin/MemberStatus";
import { Pagination } from "~/components/admin/Pagination";
import { dayMonthYear } from "~/lib/dates-in-words";
import { formatRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import {
  MEMBER_STATUS_LABELS,
  MEMBER_STATUSES,
  readMemberQuery,
  SOON,
  SOON_LABEL,
} from "~/memberships/member-list-query";
import { southAfricanDay } from "~/memberships/periods";
import { listMembersForAdmin, listTierChoices, memberFigures } from "~/memberships/members-admin.server";
import { howMembersPay } from "~/memberships/card-subscriptions.server";
import { membersByMonth } from "~/memberships/member-figures.server";
import { MembersByMonthChart } from "~/components/admin/MembersByMonthChart";
import { paysInWords } from "~/memberships/pays-words";
import type { Route } from "./+types/members";

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = readMemberQuery(new URL(request.url).searchParams);
  const today = southAfricanDay(context.clock.now());
  const [list, figures, tiers, byMonth] = await Promise.all([
    listMembersForAdmin(context.db, query, today),
    memberFigures(context.db),
    listTierChoices(context.db),
    membersByMonth(context.db, today),
  ]);
  const pays = await howMembersPay(
    context.db,
    list.members.map((m) => m.id),
  );
  const members = list.members.map((m) => ({ ...m, pays: paysInWords(pays.get(m.id) ?? { kind: "email" }) }));
  return { query, figures, byMonth, tiers: tiers.map(({ slug, name }) => ({ slug, name })), ...list, members };
}

export default function AdminMembers({ loaderData }: Route.ComponentProps) {
  const { members, figures, byMonth, tiers, query, page, pages, total } = loaderData;
  const [search] = useSearchParams();
  const exportSearch = new URLSearchParams(search);
  exportSearch.delete("page");
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Members">
        <a href={`/admin/members/export?${exportSearch}`} className="btn-outline min-h-11 px-4 py-1.5 text-sm" download>
          Export CSV<span className="sr-only"> of these members</span>
        </a>
      </AdminPageHeader>

      <section aria-labelledby="member-figures-heading">
        <h2 id="member-figures-heading" className="sr-only">
          Members at a glance
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          <div className="card col-span-2 p-4 sm:col-span-1">
            <dt className="text-sm font-semibold text-ink-soft">Monthly recurring revenue</dt>
            <dd className="mt-1 whitespace-nowrap font-display text-2xl font-semibold" data-testid="members-mrr">
              {formatRand(figures.mrrCents)}
            </dd>
            {figures.atRisk ? (
              <dd className="mt-1 text-sm font-semibold text-red-800" data-testid="members-mrr-at-risk">
                <span className="whitespace-nowrap">{formatRand(figures.atRiskCents)}</span> at risk:{" "}
                {figures.atRisk.toLocaleString("en-ZA")} due
              </dd>
            ) : null}
          </div>
          {MEMBER_STATUSES.map((status) => (
            <div key={status} className="card p-4">
              <dt className="text-sm font-semibold text-ink-soft">{MEMBER_STATUS_LABELS[status]}</dt>
              <dd className="mt-1 font-display text-2xl font-semibold">
                <Link to={`/admin/members?status=${status}`} className="link">
                  <span data-testid={`members-count-${status}`}>{figures.counts[status].toLocaleString("en-ZA")}</span>
                  <span className="sr-only"> {MEMBER_STATUS_LABELS[status].toLowerCase()} members: show them</span>
                </Link>
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-2 text-sm text-ink-soft">
          Monthly recurring revenue adds up the current price of every active and due member's tier; due members are at
          risk until they pay. Lapsed, cancelled and paused members are not counted.
        </p>
      </section>

      <section aria-labelledby="members-by-month-heading" className="card p-4 sm:p-6">
        <h2 id="members-by-month-heading" className="text-xl font-semibold">
          Members by month
        </h2>
        <p className="mb-3 text-sm text-ink-soft">The last twelve months: members who joined, renewed and lapsed.</p>
        <MembersByMonthChart months={byMonth} />
      </section>

      <AdminFilterForm label="Members" layout="grid" className="lg:grid-cols-4">
        <FilterSearch id="member-search" defaultValue={query.q} placeholder="Name or email" className="sm:col-span-2" />
        <FilterSelect
          id="member-tier"
          name="tier"
          label="Tier"
          defaultValue={query.tier}
          choices={[{ value: "", label: "Any tier" }, ...tiers.map((t) => ({ value: t.slug, label: t.name }))]}
        />
        <FilterSelect
          id="member-status"
          name="status"
          label="Status"
          defaultValue={query.status}
          choices={[
            { value: "", label: "Any status" },
            { value: SOON, label: SOON_LABEL },
            ...MEMBER_STATUSES.map((s) => ({ value: s, label: MEMBER_STATUS_LABELS[s] })),
          ]}
        />
        <FilterSubmit className="flex items-end sm:col-span-2 lg:col-span-4" />
      </AdminFilterForm>

      <p className="text-sm text-ink-soft" aria-live="polite">
        {total === 1 ? "1 member" : `${total.toLocaleString("en-ZA")} members`}
      </p>

      <DataList
        caption="Members"
        rows={members}
        rowKey={(m) => m.id}
        empty="No members match."
        columns={[
          {
            header: "Name",
            primary: true,
            cell: (m) => (
              <Link to={`/admin/members/${m.id}`} className="link break-words font-semibold">
                {m.name}
              </Link>
            ),
          },
          { header: "Email", cell: (m) => <span className="break-all">{m.email}</span> },
          { header: "Tier", cell: (m) => m.tierName },
          { header: "Status", cell: (m) => <MemberStatusBadge status={m.status} /> },
          { header: "Paid until", cell: (m) => dayMonthYear(m.paidUntil) },
          {
            header: "Pays",
            cell: (m) => (
              <span className={m.pays === "Card failed" ? "font-semibold text-red-800" : "whitespace-nowrap"}>
                {m.pays}
              </span>
            ),
          },
        ]}
      />
      <Pagination page={page} pages={pages} search={search} label="Members" />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Members",
    description: "The shop's members.",
    path: "/admin/members",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
