import { Link } from "react-router";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { DataList } from "~/components/admin/DataList";
import { seo, siteUrlFrom } from "~/lib/seo";
import { listNewsletters } from "~/newsletters/newsletters-admin.server";
import type { Route } from "./+types/newsletters";

export async function loader({ context }: Route.LoaderArgs) {
  return { newsletters: await listNewsletters(context.db) };
}

const STATUS = { draft: "Draft", scheduled: "Scheduled", sending: "Sending", sent: "Sent" } as const;

export default function AdminNewsletters({ loaderData }: Route.ComponentProps) {
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Newsletters">
        <Link to="/admin/newsletters/new" className="btn-primary min-h-11 px-4 py-1.5">
          New newsletter
        </Link>
      </AdminPageHeader>
      <p className="text-sm text-ink-soft">
        Counts are what the shop can know without watching anyone: sent, failed and unsubscribed. No tracking pixels.
      </p>
      <DataList
        caption="Newsletters"
        rows={loaderData.newsletters}
        rowKey={(n) => n.id}
        empty="No newsletters yet. Write the first one with New newsletter."
        columns={[
          {
            header: "Title",
            primary: true,
            cell: (n) => (
              <Link to={`/admin/newsletters/${n.id}`} className="link font-semibold break-words">
                {n.title}
              </Link>
            ),
          },
          { header: "Status", cell: (n) => STATUS[n.status] },
          { header: "To", cell: (n) => n.segmentLabel },
          { header: "Sent", cell: (n) => `${n.sent} of ${n.recipients}` },
          { header: "Failed", cell: (n) => String(n.failed) },
          { header: "Unsubscribed", cell: (n) => String(n.unsubscribed) },
        ]}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Newsletters",
    description: "Write to subscribers, members and customers.",
    path: "/admin/newsletters",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
