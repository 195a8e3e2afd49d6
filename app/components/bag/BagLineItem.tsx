import { useEffect, useId, useState } from "react";
import { Link, useFetcher } from "react-router";
import type { BagActionResult } from "~/bag/bag-limits";
import type { BagLineView } from "~/bag/bag-view.server";
import { Picture } from "~/components/ui/Picture";
import { formatRand } from "~/lib/money";
import { announceBagCount } from "./bag-count";

/**
 * One line of /bag: photo, name, option, unit price, a quantity form and a remove form. Both post to
 * /bag; with JavaScript they are fetchers and the page's data reloads in place.
 */
export function BagLineItem({ line }: { line: BagLineView }) {
  const update = useFetcher<BagActionResult>();
  const remove = useFetcher<BagActionResult>();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (update.data?.ok) announceBagCount(update.data.count);
  }, [update.data]);
  useEffect(() => {
    if (remove.data?.ok) announceBagCount(remove.data.count);
  }, [remove.data]);
  const quantityId = useId();
  const refused = [update, remove].map((f) => (f.state === "idle" ? f.data : undefined)).find((d) => d && !d.ok);
  const inPlace = hydrated ? <input type="hidden" name="inPlace" value="1" /> : null;
  return (
    <li className="card flex flex-col gap-4 p-4 sm:flex-row sm:items-start" data-testid="bag-line">
      {line.photo ? (
        <Picture
          src={line.photo.src}
          alt={line.photo.alt}
          sizes="96px"
          width={96}
          height={96}
          className="h-24 w-24 shrink-0 rounded-2xl object-cover"
        />
      ) : null}
      <div className="min-w-0 flex-1">
        <h2 className="text-lg font-semibold break-words">
          <Link to={line.href} className="hover:underline">
            {line.name}
          </Link>
        </h2>
        {line.option ? <p className="text-sm text-ink/80 break-words">{line.option}</p> : null}
        <p className="mt-1 text-sm">
          {line.unitPriceCents !== null ? <>{formatRand(line.unitPriceCents)} each</> : null}
        </p>
        {line.problem ? (
          <p className="mt-2 inline-block rounded-2xl bg-ink px-3 py-1 text-sm font-bold text-cream">
            {line.problem} Not counted in the total.
          </p>
        ) : null}
        <div className="mt-3 flex flex-wrap items-end gap-3">
          {line.choices.length ? (
            <update.Form method="post" action="/bag" className="flex items-end gap-2">
              <input type="hidden" name="intent" value="set" />
              <input type="hidden" name="line" value={line.id} />
              {inPlace}
              <div>
                <label htmlFor={quantityId} className="block text-sm font-medium">
                  Quantity<span className="sr-only"> of {line.name}</span>
                </label>
                <select
                  id={quantityId}
                  name="quantity"
                  defaultValue={String(Math.min(line.quantity, line.choices.length))}
                  key={line.quantity}
                  className="mt-1 block min-h-11 rounded-md border border-ink/30 bg-white px-3 py-2"
                >
                  {line.choices.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="btn-outline" disabled={update.state !== "idle"}>
                Update<span className="sr-only"> {line.name}</span>
              </button>
            </update.Form>
          ) : (
            <p className="text-sm">Quantity: {line.quantity}</p>
          )}
          <remove.Form method="post" action="/bag">
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="line" value={line.id} />
            {inPlace}
            <button type="submit" className="btn-outline" disabled={remove.state !== "idle"}>
              Remove<span className="sr-only"> {line.name}</span>
            </button>
          </remove.Form>
        </div>
        {refused ? (
          <p role="alert" className="mt-2 text-sm font-semibold text-accent">
            {refused.message}
          </p>
        ) : null}
      </div>
      {line.unitPriceCents !== null && !line.problem ? (
        <p className="font-display text-xl sm:text-right">{formatRand(line.unitPriceCents * line.quantity)}</p>
      ) : null}
    </li>
  );
}
