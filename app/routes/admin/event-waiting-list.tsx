import { eq } from "drizzle-orm";
import { data, Form, Link, redirect } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { events } from "~/db/schema";
import { textFields } from "~/lib/form";
import { formatRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import { eventWaitingLists, removeWaitlistEntry, WaitlistEditError } from "~/waitlist/owner-list.server";
import type { Route } from "./+types/event-waiting-list";

async function findEventOr404(context: Route.LoaderArgs["context"], id: string) {
  const [event] = await context.db
    .select({ id: events.id, title: events.title })
    .from(events)
    .where(eq(events.id, id.slice(0, 100)));
  if (!event) throw data("Event not found", { status: 404 });
  return event;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const event = await findEventOr404(context, params.id);
  return { event, lists: await eventWaitingLists(context.db, event.id) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const event = await findEventOr404(context, params.id);
  const { intent, entryId } = textFields(await request.formData(), ["intent", "entryId"]);
  if (intent !== "remove" || !/^[1-9][0-9]{0,8}$/.test(entryId))
    return data({ error: "Choose someone on the list to remove." }, { status: 400 });
  try {
    const summary = await removeWaitlistEntry(
      context.db,
      event.id,
      Number(entryId),
      context.clock.now(),
      context.config.siteUrl,
    );
    throw redirect(`/admin/events/${encodeURIComponent(event.id)}/waiting-list`, {
      headers: { "Set-Cookie": setToastCookie({ title: "Removed from the waiting list", description: summary }) },
    });
  } catch (error) {
    if (error instanceof WaitlistEditError) return data({ error: error.message }, { status: 409 });
    throw error;
  }
}

const people = (n: number) => (n === 1 ? "1 waiting" : `${n} waiting`);
const seatWords = (n: number) => (n === 1 ? "1 seat" : `${n} seats`);

export default function EventWaitingList({ loaderData, actionData }: Route.ComponentProps) {
  const { event, lists } = loaderData;
  return (
    <div className={adminPageClass}>
      <Link to={`/admin/events/${encodeURIComponent(event.id)}`} className="link text-sm">
        ← {event.title}
      </Link>
      <AdminPageHeader title={`Waiting list: ${event.title}`} />
      <p className="text-ink-soft">
        When seats free up, the first person in line whose seats fit is emailed an offer that holds them for the offer
        window (Settings). Removing someone with an offer releases their seats to the next person.
      </p>
      {actionData?.error ? (
        <p role="alert" className="font-semibold text-accent">
          {actionData.error}
        </p>
      ) : null}
      {lists.length === 0 ? (
        <p>Nobody is waiting for this event.</p>
      ) : (
        lists.map((list) => (
          <section key={list.stockKey} className="card space-y-3 p-4" aria-label={list.title}>
            <h2 className="font-display text-xl break-words">{list.title}</h2>
            <p className="font-semibold" data-testid="waitlist-size">
              {people(list.people)} = {formatRand(list.valueCents)}
              <span className="font-normal text-ink-soft"> ({seatWords(list.seats)})</span>
            </p>
            <ol className="space-y-2">
              {list.entries.map((entry, i) => (
                <li
                  key={entry.id}
                  className="flex flex-wrap items-start justify-between gap-3 border-t border-ink/10 pt-2"
                >
                  <div className="min-w-0">
                    <p className="font-semibold break-words">
                      {i + 1}. {entry.name}
                    </p>
                    <p className="text-sm break-all text-ink-soft">{entry.email}</p>
                    <p className={`text-sm ${entry.offered ? "font-semibold text-accent" : "text-ink-soft"}`}>
                      {seatWords(entry.seats)} · {entry.state}
                    </p>
                  </div>
                  <details>
                    <summary className="btn-outline min-h-11 cursor-pointer px-4 py-1.5 text-sm">
                      Remove<span className="sr-only"> {entry.name}</span>
                    </summary>
                    <Form method="post" className="mt-2">
                      <input type="hidden" name="intent" value="remove" />
                      <input type="hidden" name="entryId" value={entry.id} />
                      <p className="max-w-xs text-sm text-ink-soft">
                        {entry.offered
                          ? "Their held seats are released and offered to the next person."
                          : "They will get no offer for these seats."}
                      </p>
                      <button type="submit" className="btn-dark mt-2 min-h-11 px-4 py-1.5 text-sm">
                        Yes, remove {entry.name.split(" ")[0]}
                      </button>
                    </Form>
                  </details>
                </li>
              ))}
            </ol>
          </section>
        ))
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Waiting list",
    description: "Who is waiting for seats, and who holds an offer.",
    path: "/admin/events",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
