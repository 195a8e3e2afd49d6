import { doorMessage, type DoorResult } from "~/tickets/door";

const REFUSED = "bg-[#8b1a1a] text-white";
const panelClass: Record<DoorResult["outcome"], string> = {
  admitted: "bg-leaf text-white",
  already: REFUSED,
  invalid: REFUSED,
  conflict: REFUSED,
  refunded: REFUSED,
  "other-event": REFUSED,
  stale: REFUSED,
};

/** The door's answer, large enough to read at arm's length: admitted in green, every refusal in red with its reason. */
export function DoorAnswer({ result, note }: { result: DoorResult | null; note: string | null }) {
  const detail =
    result && result.outcome !== "admitted" && result.holderName
      ? `${result.holderName}${result.ticketType ? `, ${result.ticketType}` : ""}`
      : null;
  return (
    <div role="status" aria-live="assertive" aria-atomic="true" className="min-h-24">
      {result ? (
        <div className={`rounded-3xl p-6 ${panelClass[result.outcome]}`}>
          <p className="text-2xl font-bold leading-snug break-words sm:text-3xl">{doorMessage(result)}</p>
          {detail ? <p className="mt-2 text-lg break-words">{detail}</p> : null}
        </div>
      ) : note ? (
        <p className="rounded-3xl bg-cream-deep p-6 text-xl font-semibold break-words">{note}</p>
      ) : (
        <p className="rounded-3xl bg-cream-deep p-6 text-xl">
          Ready: scan, type a code, or type two letters of a name.
        </p>
      )}
    </div>
  );
}
