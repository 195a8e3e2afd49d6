import { Form } from "react-router";
import { formatDateTime } from "~/admin/format-date";

export interface LineFulfilmentRow {
  id: number;
  name: string;
  quantity: number;
  kind: "product" | "service" | null;
  state: "waiting" | "sent" | "refunded" | "none";
  method: string | null;
  fulfilledAt: string | null;
}

const SENT_WORDS: Record<string, string> = { posted: "Posted", collected: "Handed over", "service done": "Done" };

const lineName = (line: LineFulfilmentRow) => (line.quantity > 1 ? `${line.name} × ${line.quantity}` : line.name);

/**
 * Per-line fulfilment (issue 39) on an order of several lines to send: where each line stands, and one
 * form that marks the lines ticked (all waiting lines are ticked to start with) and emails the buyer once.
 */
export function LineFulfilment({ lines, error, busy }: { lines: LineFulfilmentRow[]; error?: string; busy: boolean }) {
  const toSend = lines.filter((l) => l.state !== "none");
  const waiting = toSend.filter((l) => l.state === "waiting");
  const done = toSend.filter((l) => l.state !== "waiting");
  const products = waiting.some((l) => l.kind === "product");
  return (
    <details className="rounded-xl border border-ink/15 p-3" open={Boolean(error) || waiting.length > 0}>
      <summary className="min-h-11 cursor-pointer py-2 font-semibold">
        {waiting.length ? "Mark items posted, handed over or done" : "Items sent"}
      </summary>
      {error ? (
        <p role="alert" className="mt-2 font-semibold text-red-800">
          {error}
        </p>
      ) : null}
      {done.length ? (
        <ul className="mt-2 space-y-2" aria-label="Items sent">
          {done.map((line) => (
            <li key={line.id} data-testid="line-fulfilment">
              <span className="block [overflow-wrap:anywhere]">{lineName(line)}</span>
              <span className="block text-sm text-ink-soft">
                {line.state === "refunded"
                  ? "Refunded: nothing to send"
                  : `${SENT_WORDS[line.method ?? ""] ?? "Sent"}${line.fulfilledAt ? `, ${formatDateTime(line.fulfilledAt)}` : ""}`}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {waiting.length ? (
        // Keyed by the lines waiting, so after a marking every line left starts ticked again.
        <Form key={waiting.map((l) => l.id).join("-")} method="post" className="mt-2 space-y-3">
          <input type="hidden" name="intent" value="fulfil-lines" />
          <fieldset className="min-w-0 space-y-1">
            <legend className="text-sm font-semibold">Items to mark</legend>
            {waiting.map((line) => (
              <label key={line.id} className="flex min-h-11 items-center gap-3">
                <input
                  type="checkbox"
                  name="line"
                  value={line.id}
                  defaultChecked
                  className="h-5 w-5 shrink-0 accent-ink"
                />
                <span className="min-w-0 [overflow-wrap:anywhere]">
                  {lineName(line)}
                  {line.kind === "service" ? <span className="text-ink-soft"> (marked done)</span> : null}
                </span>
              </label>
            ))}
          </fieldset>
          {products ? (
            <label className="block text-sm font-semibold">
              How the items went
              <select
                name="method"
                defaultValue="posted"
                className="mt-1 block min-h-11 w-full rounded-md border border-ink/30 bg-white px-3"
              >
                <option value="posted">Posted</option>
                <option value="collected">Handed over</option>
              </select>
            </label>
          ) : (
            <input type="hidden" name="method" value="service done" />
          )}
          <button type="submit" className="btn-primary max-w-full" disabled={busy}>
            Yes, mark them and email the customer
          </button>
        </Form>
      ) : null}
    </details>
  );
}
