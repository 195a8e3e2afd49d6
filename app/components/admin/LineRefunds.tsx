import { Form } from "react-router";
import { formatRand } from "~/lib/money";

export interface LineRefundChoice {
  id: number;
  name: string;
  quantity: number;
  left: number;
  /** What refunding 1, 2, … of the units left gives back. */
  amounts: number[];
  /** The seats still refundable, for a ticket line. */
  seats: { id: number; seat: number; name: string }[] | null;
}

const plural = (n: number, seats: boolean) =>
  `${n} ${seats ? (n === 1 ? "seat" : "seats") : n === 1 ? "unit" : "units"}`;

/**
 * The owner's refund per line (issue 39): for each line, how many units (or which seats, by holder)
 * and whether they go back on sale. The amount is worked out on the server from what the line was
 * charged; the page shows what each choice gives back.
 */
export function LineRefunds({
  lines,
  pageKey,
  error,
  busy,
}: {
  lines: LineRefundChoice[];
  pageKey: string;
  error?: string;
  busy: boolean;
}) {
  const open = lines.filter((l) => l.left > 0);
  if (!open.length) return null;
  return (
    <details className="rounded-xl border border-ink/15 p-3" open={Boolean(error)}>
      <summary className="min-h-11 cursor-pointer py-2 font-semibold">Refund per line</summary>
      {error ? (
        <p role="alert" className="mt-2 font-semibold text-red-800">
          {error}
        </p>
      ) : null}
      <div className="mt-2 space-y-4">
        {open.map((line) => {
          const seats = line.seats !== null;
          return (
            <Form key={line.id} method="post" className="space-y-3 rounded-lg border border-ink/10 p-3">
              <input type="hidden" name="intent" value="refund-line" />
              <input type="hidden" name="key" value={`${pageKey}-${line.id}`} />
              <input type="hidden" name="line" value={line.id} />
              <h3 className="font-semibold [overflow-wrap:anywhere]">{line.name}</h3>
              <p className="text-sm text-ink-soft">
                {plural(line.left, seats)} of {line.quantity} left to refund. Gives back{" "}
                {line.amounts.map((cents, i) => `${plural(i + 1, seats)} ${formatRand(cents)}`).join(", ")}.
              </p>
              {line.seats?.length ? (
                <fieldset className="min-w-0 space-y-1">
                  <legend className="text-sm font-semibold">Seats to refund</legend>
                  {line.seats.map((seat) => (
                    <label key={seat.id} className="flex min-h-11 items-center gap-3">
                      <input type="checkbox" name="seat" value={seat.id} className="h-5 w-5 shrink-0 accent-ink" />
                      <span className="min-w-0 [overflow-wrap:anywhere]">
                        Seat {seat.seat}: {seat.name}
                      </span>
                    </label>
                  ))}
                </fieldset>
              ) : (
                <label className="block text-sm font-semibold">
                  How many
                  <select
                    name="units"
                    defaultValue="1"
                    className="mt-1 block min-h-11 w-full rounded-md border border-ink/30 bg-white px-3"
                  >
                    {line.amounts.map((cents, i) => (
                      <option key={i} value={i + 1}>
                        {plural(i + 1, seats)}, {formatRand(cents)}
                      </option>
                    ))}
                  </select>
                </label>
              )}
              <label className="flex min-h-11 items-center gap-3">
                <input type="checkbox" name="restock" defaultChecked className="h-5 w-5 shrink-0 accent-ink" />
                <span>{seats ? "Return the seats to sale" : "Return to stock"}</span>
              </label>
              <button
                type="submit"
                className="min-h-11 rounded-full bg-red-800 px-5 font-semibold text-white"
                disabled={busy}
              >
                Refund these through the payment provider
              </button>
            </Form>
          );
        })}
      </div>
    </details>
  );
}
