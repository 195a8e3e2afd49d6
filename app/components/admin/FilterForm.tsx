import type { ReactNode } from "react";
import { Form } from "react-router";

const control = "mt-1 block min-h-11 w-full rounded-xl border border-ink/30 bg-white px-3";

/**
 * How the filter's fields sit: in a wrapping row (a search box that grows, a choice or two and the
 * button), or in a grid for lists with many filters. Each field's box gets `className` for its span.
 */
const LAYOUTS = {
  row: "flex flex-wrap items-end gap-3",
  grid: "grid gap-3 sm:grid-cols-2",
} as const;

/**
 * An admin list's search-and-filter form: a GET form, so the filtered list has its own address that
 * can be bookmarked and reloaded, and is a search landmark named after the list.
 */
export function AdminFilterForm({
  label,
  layout = "row",
  className = "",
  children,
}: {
  /** The list it filters ("Orders"): the search landmark's name. */
  label: string;
  layout?: keyof typeof LAYOUTS;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Form method="get" role="search" aria-label={label} className={`card ${LAYOUTS[layout]} p-4 ${className}`.trim()}>
      {children}
    </Form>
  );
}

/** A labelled field of the filter form, in its own box. */
function FilterBox({
  id,
  label,
  className,
  children,
}: {
  id: string;
  label: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <div className={className || undefined}>
      <label htmlFor={id} className="block text-sm font-semibold">
        {label}
      </label>
      {children}
    </div>
  );
}

/** The free-text search (`q`), labelled "Search"; in a row it takes the room left. */
export function FilterSearch({
  id,
  defaultValue,
  placeholder,
  className = "min-w-0 flex-1 basis-48",
}: {
  id: string;
  defaultValue: string;
  placeholder: string;
  className?: string;
}) {
  return (
    <FilterBox id={id} label="Search" className={className}>
      <input id={id} name="q" type="search" defaultValue={defaultValue} placeholder={placeholder} className={control} />
    </FilterBox>
  );
}

export interface FilterChoice {
  value: string;
  label: string;
}

/**
 * One choice of the filter (status, type, tier...). `resetKey` re-creates the select when the list's
 * address changes it without a new page (a link that sets the filter), so it shows the new choice.
 */
export function FilterSelect({
  id,
  name,
  label,
  defaultValue,
  choices,
  className = "",
  resetKey,
}: {
  id: string;
  name: string;
  label: string;
  defaultValue: string;
  choices: readonly FilterChoice[];
  className?: string;
  resetKey?: string;
}) {
  return (
    <FilterBox id={id} label={label} className={className}>
      <select id={id} name={name} defaultValue={defaultValue} key={resetKey} className={control}>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </FilterBox>
  );
}

/** A day the list is filtered from or to. */
export function FilterDate({
  id,
  name,
  label,
  defaultValue,
  className = "",
}: {
  id: string;
  name: string;
  label: string;
  defaultValue: string;
  className?: string;
}) {
  return (
    <FilterBox id={id} label={label} className={className}>
      <input id={id} name={name} type="date" defaultValue={defaultValue} className={control} />
    </FilterBox>
  );
}

/** The form's button ("Filter", or "Search" where the list only searches); `className` places its box. */
export function FilterSubmit({
  label = "Filter",
  className,
  wide = false,
}: {
  label?: string;
  className?: string;
  wide?: boolean;
}) {
  const button = (
    <button type="submit" className={`btn-outline min-h-11 px-4 py-1.5${wide ? " w-full" : ""}`}>
      {label}
    </button>
  );
  return className ? <div className={className}>{button}</div> : button;
}
