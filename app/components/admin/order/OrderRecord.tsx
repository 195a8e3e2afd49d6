import { formatDateTime } from "~/admin/format-date";
import { Money } from "~/components/admin/Money";
import type { AdminOrderView } from "~/orders/admin-order-view.server";
import { adminSectionClass as section } from "~/components/admin/AdminShell";

/** The order's refunds, its history and the emails it sent, newest last. */
export function OrderRecord({ refunds, history, emails }: Pick<AdminOrderView, "refunds" | "history" | "emails">) {
  return (
    <>
      {refunds.length ? (
        <section className={section} aria-labelledby="refunds-heading">
          <h2 id="refunds-heading" className="text-xl font-semibold">
            Refunds
          </h2>
          <ul className="space-y-1">
            {refunds.map((r) => (
              <li key={r.id}>
                <Money cents={r.amountCents} />:{" "}
                {r.status === "succeeded"
                  ? "refunded"
                  : r.status === "failed"
                    ? `failed${r.reason ? ` (${r.reason})` : ""}`
                    : "refund pending"}
                , {formatDateTime(r.createdAt)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className={section} aria-labelledby="history-heading">
        <h2 id="history-heading" className="text-xl font-semibold">
          History
        </h2>
        <ol className="space-y-2">
          {history.map((h) => (
            <li key={h.id} className="flex flex-wrap justify-between gap-x-3">
              <span className="min-w-0 [overflow-wrap:anywhere]">{h.summary}</span>
              <time className="text-sm text-ink-soft" dateTime={h.at}>
                {formatDateTime(h.at)}
              </time>
            </li>
          ))}
        </ol>
        {emails.length ? (
          <>
            <h3 className="pt-2 font-semibold">Emails</h3>
            <ul className="space-y-1 text-sm">
              {emails.map((e) => (
                <li key={e.id} className="[overflow-wrap:anywhere]">
                  {e.subject} to {e.to}:{" "}
                  {e.status === "sent" && e.sentAt
                    ? `sent ${formatDateTime(e.sentAt)}`
                    : e.status === "failed"
                      ? "could not be sent"
                      : "waiting to be sent"}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
    </>
  );
}
