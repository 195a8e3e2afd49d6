import type { SegmentChoices } from "~/newsletters/segments.server";
import { SEGMENT_KINDS } from "~/newsletters/newsletter-schema";
import { SEGMENT_RULES } from "~/newsletters/segment-rules";

export interface SegmentValues {
  segment: (typeof SEGMENT_KINDS)[number];
  tiers: string[];
  events: string[];
  products: string[];
}

const people = (n: number) => (n === 1 ? "1 person" : `${n} people`);

function Choices({
  legend,
  name,
  options,
  checked,
  error,
}: {
  legend: string;
  name: string;
  options: { value: string; label: string; count: number }[];
  checked: string[];
  error?: string;
}) {
  if (!options.length) return null;
  return (
    <fieldset className="mt-2 ml-8" aria-describedby={error ? `${name}-error` : undefined}>
      <legend className="text-sm font-semibold">{legend}</legend>
      {error ? (
        <p id={`${name}-error`} className="mt-1 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <ul className="mt-1">
        {options.map((o) => (
          <li key={o.value}>
            <label className="flex min-h-11 items-center gap-3">
              <input
                type="checkbox"
                name={name}
                value={o.value}
                defaultChecked={checked.includes(o.value)}
                className="h-5 w-5 shrink-0 accent-ink"
              />
              <span className="break-words">
                {o.label} <span className="text-ink-soft">({people(o.count)})</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** Who receives it: four segments, each saying the rule that allows it and how many it reaches. */
export function SegmentPicker({
  choices,
  values,
  errors,
}: {
  choices: SegmentChoices;
  values: SegmentValues;
  errors?: Record<string, string>;
}) {
  return (
    <fieldset aria-describedby={errors?.segment ? "segment-error" : undefined}>
      <legend className="font-semibold">Who receives it</legend>
      {errors?.segment ? (
        <p id="segment-error" className="mt-1 text-sm text-red-800">
          {errors.segment}
        </p>
      ) : null}
      <div className="mt-2 space-y-3">
        {SEGMENT_KINDS.map((kind) => (
          <div key={kind} className="rounded-xl border border-ink/15 p-3">
            <label className="flex min-h-11 items-start gap-3">
              <input
                type="radio"
                name="segment"
                value={kind}
                defaultChecked={values.segment === kind}
                className="mt-1 h-5 w-5 shrink-0 accent-ink"
                aria-describedby={`segment-${kind}-rule`}
              />
              <span>
                <span className="font-semibold">{SEGMENT_RULES[kind].label}</span>
                {kind === "subscribers" ? (
                  <span className="text-ink-soft"> ({people(choices.subscribers)})</span>
                ) : null}
              </span>
            </label>
            <p id={`segment-${kind}-rule`} className="ml-8 text-sm text-ink-soft">
              {SEGMENT_RULES[kind].rule}
            </p>
            {kind === "tiers" ? (
              <Choices
                legend="Tiers"
                name="tiers"
                options={choices.tiers.map((t) => ({ value: t.slug, label: `${t.name} members`, count: t.count }))}
                checked={values.tiers}
                error={errors?.tiers}
              />
            ) : null}
            {kind === "attendees" ? (
              <Choices
                legend="Events"
                name="events"
                options={choices.events.map((e) => ({ value: e.id, label: `${e.title}, ${e.dates}`, count: e.count }))}
                checked={values.events}
                error={errors?.events}
              />
            ) : null}
            {kind === "buyers" ? (
              <Choices
                legend="Products"
                name="products"
                options={choices.products.map((p) => ({ value: String(p.id), label: p.name, count: p.count }))}
                checked={values.products}
                error={errors?.products}
              />
            ) : null}
          </div>
        ))}
      </div>
    </fieldset>
  );
}
