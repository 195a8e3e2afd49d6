import { useId } from "react";
import { Link } from "react-router";
import { type BagActionResult, quantityChoices } from "~/bag/bag-limits";

/** The quantity a bag form adds: up to what is left (null: not counted), at most 10. */
export function BagQuantity({ available }: { available: number | null }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-ink">
        Quantity
      </label>
      <select
        id={id}
        name="quantity"
        defaultValue="1"
        className="mt-1 block min-h-11 rounded-md border border-ink/30 bg-white px-3 py-2 text-ink"
      >
        {quantityChoices(available).map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </div>
  );
}

/** What the bag said to a fetcher's form: done with a link to the bag, or why not. */
export function BagAnswer({ result, busy }: { result: BagActionResult | undefined; busy: boolean }) {
  if (!result || busy) return null;
  if (!result.ok) return <span className="text-accent">{result.message}</span>;
  return (
    <>
      {result.message}{" "}
      <Link to="/bag" className="link">
        View bag
      </Link>
    </>
  );
}
