import { Form, Link } from "react-router";
import { formatDateTime } from "~/admin/format-date";
import { dayMonthYear } from "~/lib/dates-in-words";
import type { TodoList as TodoView } from "~/dashboard/todo";
import { SOON, SOON_DAYS } from "~/memberships/member-list-query";
import { addDays, GRACE_DAYS } from "~/memberships/periods";

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-ZA")} ${n === 1 ? one : many}`;

/** One job: a heading that links to the list filtered to exactly these, and the first few by name. */
function Job({
  to,
  title,
  tone = "default",
  children,
}: {
  to: string;
  title: string;
  tone?: "urgent" | "default";
  children: React.ReactNode;
}) {
  return (
    <li className="py-3 first:pt-0 last:pb-0">
      <Link
        to={to}
        className={`flex min-h-11 items-center justify-between gap-3 font-semibold ${tone === "urgent" ? "text-red-800" : "text-ink"}`}
      >
        <span className="link min-w-0 break-words">{title}</span>
        <span aria-hidden="true">→</span>
      </Link>
      <ul className="mt-1 space-y-2 text-sm">{children}</ul>
    </li>
  );
}

const reference = "link whitespace-nowrap font-mono font-semibold";

/**
 * The top of the dashboard: what needs the owner today, most pressing first, each line only when
 * there is something to do. Every heading opens the list that shows exactly those.
 */
export function TodoList({ todo, today }: { todo: TodoView; today: string }) {
  const { attention, toPost, messages, members, events } = todo;
  const empty = !attention.total && !toPost.total && !messages.total && !members.total && !events.length;
  return (
    <section aria-labelledby="todo-heading" className="card p-4 sm:p-6">
      <h2 id="todo-heading" className="text-xl font-semibold">
        To do today
      </h2>
      {empty ? (
        <p className="mt-2 text-ink-soft">
          Nothing needs you today: no order to post, no message waiting, no member due.
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-ink/10">
          {attention.total ? (
            <Job
              to="/admin/orders?status=attention"
              tone="urgent"
              title={`${plural(attention.total, "order needs", "orders need")} attention`}
            >
              {attention.orders.map((o) => (
                <li key={o.id} className="break-words">
                  <Link to={`/admin/orders/${o.id}`} className={reference}>
                    {o.reference}
                  </Link>{" "}
                  {o.itemName}
                  {o.reason ? <span className="block text-ink-soft">{o.reason}</span> : null}
                </li>
              ))}
            </Job>
          ) : null}
          {toPost.total ? (
            <Job
              to="/admin/orders?status=to-post"
              title={`${plural(toPost.total, "product", "products")} to post or hand over`}
            >
              {toPost.orders.map((o) => (
                <li key={o.id} className="break-words">
                  <Link to={`/admin/orders/${o.id}`} className={reference}>
                    {o.reference}
                  </Link>{" "}
                  {o.itemName}, for {o.customer}
                </li>
              ))}
            </Job>
          ) : null}
          {messages.total ? (
            <Job
              to="/admin/messages?state=unanswered"
              title={`${plural(messages.total, "message", "messages")} not yet answered`}
            >
              {messages.messages.map((m) => (
                <li key={m.id} className="break-words">
                  <span className="font-semibold">{m.name}</span>: {m.subject}
                </li>
              ))}
            </Job>
          ) : null}
          {members.total ? (
            <Job
              to={`/admin/members?status=${SOON}`}
              title={`${plural(members.total, "member", "members")} due or lapsing within ${SOON_DAYS} days`}
            >
              {members.members.map((m) => (
                <li key={m.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <span className="min-w-0 break-words">
                    <Link to={`/admin/members/${m.id}`} className="link font-semibold">
                      {m.name}
                    </Link>{" "}
                    <span className="text-ink-soft">{memberWhen(m, today)}</span>
                    {m.cardFailed ? <span className="font-semibold text-red-800"> card failed</span> : null}
                  </span>
                  <Form method="post" action={`/admin/members/${m.id}`}>
                    <input type="hidden" name="intent" value="resend" />
                    <button type="submit" className="btn-outline min-h-11 px-4 py-1.5 text-sm">
                      Send renew link<span className="sr-only"> to {m.name}</span>
                    </button>
                  </Form>
                </li>
              ))}
            </Job>
          ) : null}
          {events.length ? (
            <Job to="/admin/events" title={`${plural(events.length, "event", "events")} this week`}>
              {events.map((e) => (
                <li key={e.id} className="break-words">
                  <Link to={`/admin/events/${e.id}/attendees`} className="link font-semibold">
                    {e.title}
                  </Link>{" "}
                  <span className="text-ink-soft">{formatDateTime(e.startsAt)}</span>{" "}
                  <span className="whitespace-nowrap">
                    {e.capacity === null ? `${e.sold} sold` : `${e.sold} / ${e.capacity} sold`}
                  </span>
                </li>
              ))}
            </Job>
          ) : null}
        </ul>
      )}
    </section>
  );
}

/** "due 3 December 2026", "due today", or for a due member the day the membership lapses. */
function memberWhen(member: { paidUntil: string; status: string }, today: string): string {
  if (member.paidUntil > today) return `due ${dayMonthYear(member.paidUntil)}`;
  if (member.paidUntil === today) return "due today";
  return `unpaid, lapses ${dayMonthYear(addDays(member.paidUntil, GRACE_DAYS))}`;
}
