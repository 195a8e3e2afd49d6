import { Link } from "react-router";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { DataList } from "~/components/admin/DataList";
import { seo, siteUrlFrom } from "~/lib/seo";
import { formatDateTime } from "~/admin/format-date";
import { listNewsletters, listSubscribers } from "~/newsletters/newsletters-admin.server";
import type { Route } from "./+types/newsletters";

export async function loader({ context }: Route.LoaderArgs) {
  const [letters, people] = await Promise.all([listNewsletters(context.db), listSubscribers(context.db)]);
  return { newsletters: letters, subscribers: people };
}

const STATUS = { draft: "Draft", scheduled: "Scheduled", sending: "Sending", sent: "Sent" } as const;
const STANDING = { pending: "Not confirmed yet", subscribed: "Subscribed", unsubscribed: "Unsubscribed" } as const;
const ACTION = { asked: "Asked", given: "Consent given", withdrawn: "Withdrawn" } as const;

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
      <section aria-labelledby="subscribers-heading" className="space-y-3">
        <h2 id="subscribers-heading" className="font-display text-2xl">
          Subscribers
        </h2>
        <p className="text-sm text-ink-soft">
          {loaderData.subscribers.subscribed === 1
            ? "1 person is subscribed."
            : `${loaderData.subscribers.subscribed} people are subscribed.`}{" "}
          Each line shows the evidence last kept for the address: the words she saw, where, when and how it was
          confirmed.
        </p>
        <DataList
          caption="Subscribers and their consent"
          rows={loaderData.subscribers.rows}
          rowKey={(s) => s.id}
          empty="Nobody has signed up yet."
          columns={[
            {
              header: "Address",
              primary: true,
              cell: (s) => (
                <span className="font-semibold break-all">
                  {s.email}
                  {s.name ? <span className="font-normal break-words"> ({s.name})</span> : null}
                </span>
              ),
            },
            { header: "Standing", cell: (s) => STANDING[s.status] },
            {
              header: "Evidence",
              cell: (s) =>
                s.action && s.at ? (
                  <span className="break-words">
                    {ACTION[s.action]} on {formatDateTime(s.at)}, {s.form} form on {s.page}: “{s.wording}” Confirmed by:{" "}
                    {s.confirmedBy}.
                  </span>
                ) : (
                  "None kept"
                ),
            },
          ]}
        />
      </section>
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
