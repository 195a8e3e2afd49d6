import type { BagLineView } from "~/bag/bag-view.server";
import { formatRand } from "~/lib/money";

/**
 * The bag checkout's summary card: each line, its quantity and price (with a member's perk, what it
 * costs after it), and the total the server will charge.
 */
export function BagSummary({
  lines,
  totalCents,
  perks = {},
}: {
  lines: BagLineView[];
  totalCents: number;
  perks?: Record<number, { reason: string; chargedCents: number }>;
}) {
  return (
    <section className="card p-6" aria-labelledby="summary-heading">
      <h2 id="summary-heading" className="font-display text-2xl">
        Order Summary
      </h2>
      <ul className="mt-4 divide-y divide-ink/10">
        {lines.map((line) => (
          <li key={line.id} className="flex justify-between gap-4 py-3" data-testid="summary-line">
            <div className="min-w-0">
              <p className="font-semibold break-words">{line.name}</p>
              {line.option ? <p className="text-sm text-ink/80 break-words">{line.option}</p> : null}
              <p className="text-sm">
                {line.quantity} × {line.unitPriceCents !== null ? formatRand(line.unitPriceCents) : "no price"}
              </p>
              {perks[line.id] ? (
                <p className="text-sm text-ink/85 break-words" data-testid="summary-perk">
                  {perks[line.id]!.reason}
                </p>
              ) : null}
              {line.problem ? <p className="mt-1 text-sm font-semibold text-accent">{line.problem}</p> : null}
            </div>
            {line.unitPriceCents !== null && !line.problem ? (
              perks[line.id] ? (
                <p className="shrink-0 text-right font-semibold">
                  <s className="block text-sm font-normal text-ink/70">
                    <span className="sr-only">was </span>
                    {formatRand(line.unitPriceCents * line.quantity)}
                  </s>
                  <span className="sr-only">now </span>
                  {formatRand(perks[line.id]!.chargedCents)}
                </p>
              ) : (
                <p className="shrink-0 font-semibold">{formatRand(line.unitPriceCents * line.quantity)}</p>
              )
            ) : null}
          </li>
        ))}
      </ul>
      <div className="flex items-baseline justify-between border-t border-ink/10 pt-3">
        <p className="font-semibold">Total</p>
        <p className="font-display text-2xl" data-testid="checkout-total">
          {formatRand(totalCents)}
        </p>
      </div>
    </section>
  );
}
