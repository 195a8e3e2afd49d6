import { Form } from "react-router";
import { saClock, saDay, type DoorTicket } from "~/tickets/door";
import { formatShortCode } from "~/tickets/short-code";

/** What a ticket in the search results says about itself. */
function ticketState(ticket: DoorTicket): string {
  if (ticket.voidedAt) return `Refunded on ${saDay(ticket.voidedAt)}`;
  if (ticket.checkedInAt) return `Checked in at ${saClock(ticket.checkedInAt)}`;
  return "Not checked in yet";
}

/**
 * The tickets whose holder, email or reference matches what was typed, each with its state and an Admit
 * button (a form that posts without JavaScript; with it, `onAdmit` checks the code in place).
 */
export function DoorMatches({
  matches,
  eventId,
  onAdmit,
}: {
  matches: DoorTicket[];
  eventId: string;
  onAdmit: (code: string) => void;
}) {
  if (!matches.length) return null;
  return (
    <section aria-labelledby="door-matches" className="space-y-3">
      <h2 id="door-matches" className="text-lg font-semibold">
        {matches.length === 1 ? "1 matching ticket" : `${matches.length} matching tickets`}
      </h2>
      <ul className="space-y-3">
        {matches.map((t) => (
          <li key={t.code} className="card flex flex-wrap items-center justify-between gap-3 p-4">
            <div className="min-w-0 flex-1 basis-48">
              <p className="text-lg font-semibold break-words">{t.name}</p>
              <p className="text-sm break-words text-ink-soft">
                {t.type} · <span className="font-mono whitespace-nowrap">{formatShortCode(t.shortCode)}</span> ·{" "}
                {t.reference}
              </p>
              <p className={`text-sm font-semibold ${t.voidedAt ? "text-[#8b1a1a]" : ""}`}>{ticketState(t)}</p>
            </div>
            {t.voidedAt ? (
              <p className="font-bold text-[#8b1a1a]">Do not admit</p>
            ) : t.checkedInAt ? (
              <p className="font-bold text-leaf">Already in</p>
            ) : (
              <Form
                method="post"
                onSubmit={(event) => {
                  event.preventDefault();
                  onAdmit(t.code);
                }}
              >
                <input type="hidden" name="eventId" value={eventId} />
                <input type="hidden" name="code" value={t.code} />
                <button type="submit" className="btn-primary min-h-14 min-w-32 px-6 text-lg">
                  Admit<span className="sr-only"> {t.name}</span>
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
