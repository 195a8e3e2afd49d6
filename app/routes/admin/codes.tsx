import { Link } from "react-router";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { DataList } from "~/components/admin/DataList";
import { formatRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import { listCodesForAdmin } from "~/pricing/discount-codes-admin.server";
import type { Route } from "./+types/codes";

export async function loader({ context }: Route.LoaderArgs) {
  return {
    codes: await listCodesForAdmin(context.db, context.clock.now(), context.config.payment.stockHoldMinutes),
  };
}

export default function AdminCodes({ loaderData }: Route.ComponentProps) {
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Discount codes">
        <Link to="/admin/codes/new" className="btn-primary min-h-11 px-4 py-1.5">
          New code
        </Link>
      </AdminPageHeader>
      <p className="text-sm text-ink-soft">
        Buyers type a code at checkout, in any case. Uses count paid orders and checkouts still being paid; a checkout
        left unpaid or an order refunded in full gives its use back. Revenue is what paid orders with the code were
        charged, less refunds.
      </p>
      <DataList
        caption="Discount codes"
        rows={loaderData.codes}
        rowKey={(c) => c.id}
        empty="No discount codes yet. Make the first one with New code."
        columns={[
          {
            header: "Code",
            primary: true,
            cell: (c) => (
              <Link to={`/admin/codes/${c.id}`} className="link font-semibold break-all">
                {c.code}
              </Link>
            ),
          },
          { header: "Gives", cell: (c) => <span className="break-words">{c.gives}</span> },
          { header: "Applies to", cell: (c) => <span className="break-words">{c.appliesTo}</span> },
          { header: "Valid", cell: (c) => c.valid },
          {
            header: "Uses",
            cell: (c) => (c.perEmail === null ? c.uses : `${c.uses}, ${c.perEmail} per customer`),
          },
          { header: "Revenue", cell: (c) => formatRand(c.revenueCents) },
          { header: "Status", cell: (c) => (c.active ? "On" : "Off: refused at checkout") },
        ]}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Discount codes",
    description: "Codes buyers type at checkout.",
    path: "/admin/codes",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
