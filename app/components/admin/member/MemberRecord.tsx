import { Link } from "react-router";
import { formatDateTime } from "~/admin/format-date";
import { dayMonthYear } from "~/lib/dates-in-words";
import { formatRand } from "~/lib/money";
import type { AdminMemberView } from "~/memberships/admin-member-view.server";
import { adminSectionClass as section } from "~/components/admin/AdminShell";

/** A member's payments and gifts, and the emails sent to her. */
export function MemberRecord({ payments, emails }: Pick<AdminMemberView, "payments" | "emails">) {
  return (
    <>
      <section className={section} aria-labelledby="payments-heading">
        <h2 id="payments-heading" className="text-xl font-semibold">
          Payments and gifts
        </h2>
        {payments.length ? (
          <ol className="space-y-2">
            {payments.map((p) => (
              <li key={p.id} className="border-b border-ink/5 pb-2">
                <div className="flex flex-wrap justify-between gap-x-3">
                  <span className="font-semibold">
                    {p.kind === "gift" ? "Gift" : formatRand(p.amountCents)}: {p.tierName}, {dayMonthYear(p.startsOn)}{" "}
                    to {dayMonthYear(p.endsOn)}
                  </span>
                  <time className="text-sm text-ink-soft" dateTime={p.createdAt}>
                    {formatDateTime(p.createdAt)}
                  </time>
                </div>
                {p.orderId ? (
                  <Link to={`/admin/orders/${p.orderId}`} className="link text-sm">
                    Order {p.reference ?? ""}
                  </Link>
                ) : null}
                {p.note ? <p className="break-words text-sm">{p.note}</p> : null}
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-ink-soft">No payments yet.</p>
        )}
      </section>

      <section className={section} aria-labelledby="emails-heading">
        <h2 id="emails-heading" className="text-xl font-semibold">
          Emails
        </h2>
        {emails.length ? (
          <ul className="space-y-1 text-sm">
            {emails.map((e) => (
              <li key={e.id} className="[overflow-wrap:anywhere]">
                <span className="font-semibold">{e.subject}</span>: queued {formatDateTime(e.createdAt)},{" "}
                {e.status === "sent" && e.sentAt
                  ? `sent ${formatDateTime(e.sentAt)}`
                  : e.status === "failed"
                    ? "could not be sent"
                    : "waiting to be sent"}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-ink-soft">No emails yet.</p>
        )}
      </section>
    </>
  );
}
