import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { trackEvent } from "~/analytics/track";
import type { BagActionResult } from "~/bag/bag-limits";
import { BagAnswer, BagQuantity } from "./BagFormParts";
import { announceBagCount } from "./bag-count";

interface AddToBagProps {
  kind: "catalog" | "ticket";
  id: number;
  /** What the button adds, for screen readers ("Add to bag: Candy Earrings"). */
  name: string;
  /** Units left (null when not counted): the quantity offers up to this, at most 10. */
  available: number | null;
}

/**
 * "Add to bag" with a quantity: a form that posts to /bag (without JavaScript the bag opens), and with
 * JavaScript a fetcher that stays on the page and says what it did.
 */
export function AddToBag({ kind, id, name, available }: AddToBagProps) {
  const fetcher = useFetcher<BagActionResult>();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const result = fetcher.data;
  useEffect(() => {
    if (!result?.ok) return;
    announceBagCount(result.count);
    trackEvent("add_to_bag", { itemName: name, metadata: { bagCount: result.count } });
  }, [result, name]);
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action="/bag" className="flex flex-wrap items-end gap-3">
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="id" value={id} />
      {hydrated ? <input type="hidden" name="inPlace" value="1" /> : null}
      <BagQuantity available={available} />
      <button type="submit" className="btn-dark min-h-11" disabled={busy}>
        Add to bag<span className="sr-only">: {name}</span>
      </button>
      <p role="status" className="basis-full text-sm font-semibold text-ink" aria-live="polite">
        <BagAnswer result={result} busy={busy} />
      </p>
    </fetcher.Form>
  );
}
