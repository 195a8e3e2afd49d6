import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useFetcher, useNavigate } from "react-router";
import { trackEvent } from "~/analytics/track";
import type { BagActionResult } from "~/bag/bag-limits";
import { BagAnswer, BagQuantity } from "~/components/bag/BagFormParts";
import { announceBagCount } from "~/components/bag/bag-count";
import { choiceQuery, type ProductOption, type VariantView } from "~/catalog/product-options";
import { formatRand, shortRand } from "~/lib/money";

interface ProductChoiceProps {
  product: { id: number; name: string; priceCents: number | null; priceText: string };
  options: ProductOption[];
  rows: VariantView[];
  /** The values chosen by the page's URL (a search result's offer links to its row). */
  initial: { option1: string; option2: string };
  /** Shows the chosen row's photo in the gallery. */
  onPhoto: (src: string | null) => void;
}

const rowOf = (rows: VariantView[], v1: string, v2: string, two: boolean) =>
  rows.find((r) => r.enabled && r.value1 === v1 && (!two || r.value2 === v2)) ?? null;

/**
 * A product with sizes or colours: a group of radio buttons per option, the chosen row's price and stock, and
 * "Add to bag" and "Order Now" for that row. One form that works without JavaScript (Add to bag posts to /bag;
 * Order Now sends the choice to /checkout); with JavaScript the bag is changed in place, and a value with nothing
 * left beside the other choice is marked and can't be chosen.
 */
export function ProductChoice({ product, options, rows, initial, onPhoto }: ProductChoiceProps) {
  const two = options.length > 1;
  // A value the URL names that the product does not have is no choice at all.
  const known = (i: number, value: string) => (options[i]?.values.includes(value) ? value : "");
  const [chosen, setChosen] = useState<[string, string]>([known(0, initial.option1), known(1, initial.option2)]);
  const [hydrated, setHydrated] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => setHydrated(true), []);
  const fetcher = useFetcher<BagActionResult>();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const messageId = useId();
  const row = rowOf(rows, chosen[0], chosen[1], two);
  const result = fetcher.data;
  useEffect(() => {
    if (!result?.ok) return;
    announceBagCount(result.count);
    trackEvent("add_to_bag", { itemName: product.name, metadata: { bagCount: result.count } });
  }, [result, product.name]);
  useEffect(() => onPhoto(row?.image ?? null), [row, onPhoto]);

  /** Whether a value can be chosen: some row on sale with it has units left (beside the other choice, once made). */
  const open = (option: 0 | 1, value: string) =>
    rows.some((r) => {
      if (!r.enabled || r.available === 0) return false;
      if ((option === 0 ? r.value1 : r.value2) !== value) return false;
      const other = chosen[option === 0 ? 1 : 0];
      return !hydrated || !two || other === "" || (option === 0 ? r.value2 : r.value1) === other;
    });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing = options.filter((_, i) => chosen[i] === "");
    if (missing.length > 0) {
      setProblem(`Please choose a ${missing.map((o) => o.name).join(" and ")}.`);
      formRef.current
        ?.querySelector<HTMLInputElement>(`input[name="option${chosen[0] === "" ? 1 : 2}"]:not(:disabled)`)
        ?.focus();
      return;
    }
    if (!row || row.available === 0) {
      setProblem("That choice is sold out. Please choose another.");
      return;
    }
    setProblem(null);
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter?.getAttribute("formaction") === "/checkout") {
      const price = shortRand(row.priceCents ?? product.priceCents ?? 0);
      const query = `type=product&item=${encodeURIComponent(product.name)}&price=${encodeURIComponent(price)}`;
      navigate(`/checkout?${query}&${choiceQuery(options, row)}`);
    } else {
      fetcher.submit(event.currentTarget, { method: "post", action: "/bag" });
    }
  }

  const priceCents = row ? (row.priceCents ?? product.priceCents) : null;
  const busy = fetcher.state !== "idle";
  return (
    <form
      ref={formRef}
      method="post"
      action="/bag"
      onSubmit={submit}
      noValidate={hydrated}
      aria-describedby={messageId}
      className="mt-6"
    >
      <p className="text-2xl font-semibold" aria-live="polite">
        {priceCents !== null ? formatRand(priceCents) : product.priceText}
      </p>
      {row && row.available === 0 && (
        <p className="mt-3 inline-block rounded-full bg-ink px-4 py-1 text-sm font-bold tracking-wider text-cream">
          SOLD OUT
        </p>
      )}
      {row && row.available !== null && row.available > 0 && (
        <p className="mt-3 inline-block rounded-full bg-honey px-4 py-1 text-sm font-bold tracking-wider text-ink">
          {row.available} LIMITED STOCK!
        </p>
      )}
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="kind" value="catalog" />
      <input type="hidden" name="id" value={product.id} />
      <input type="hidden" name="type" value="product" />
      <input type="hidden" name="item" value={product.name} />
      {product.priceCents !== null && <input type="hidden" name="price" value={shortRand(product.priceCents)} />}
      {hydrated ? <input type="hidden" name="inPlace" value="1" /> : null}
      {options.map((option, i) => (
        <fieldset key={option.name} className="mt-6">
          <legend className="text-sm font-semibold text-ink">
            {option.name}
            {chosen[i] ? <span className="font-normal">: {chosen[i]}</span> : null}
          </legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {option.values.map((value) => {
              const choosable = open(i as 0 | 1, value);
              return (
                <label
                  key={value}
                  className={
                    "relative inline-flex min-h-11 min-w-11 cursor-pointer items-center justify-center rounded-md border-2 " +
                    "px-3 text-ink has-[:checked]:border-ink has-[:checked]:bg-ink has-[:checked]:text-cream " +
                    "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ink " +
                    (choosable
                      ? "border-ink/30 bg-white"
                      : "cursor-not-allowed border-ink/15 bg-cream text-ink-soft line-through")
                  }
                >
                  <input
                    type="radio"
                    name={`option${i + 1}`}
                    value={value}
                    required
                    disabled={!choosable}
                    checked={chosen[i] === value}
                    onChange={() => {
                      setProblem(null);
                      setChosen((c) => (i === 0 ? [value, c[1]] : [c[0], value]));
                    }}
                    className="sr-only"
                  />
                  {value}
                  {!choosable && <span className="sr-only"> (sold out)</span>}
                </label>
              );
            })}
          </div>
        </fieldset>
      ))}
      <div className="mt-6 flex flex-wrap items-end gap-3">
        <BagQuantity available={row?.available ?? null} />
        <button type="submit" className="btn-dark min-h-11" disabled={busy}>
          Add to bag<span className="sr-only">: {product.name}</span>
        </button>
        <button type="submit" formMethod="get" formAction="/checkout" className="btn-primary min-h-11">
          Order Now
        </button>
      </div>
      <p id={messageId} role="status" className="mt-3 text-sm font-semibold text-ink" aria-live="polite">
        {problem ? <span className="text-accent">{problem}</span> : <BagAnswer result={result} busy={busy} />}
      </p>
    </form>
  );
}
