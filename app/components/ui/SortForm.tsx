import { Form, useSubmit } from "react-router";
import { SortButton } from "./SortButton";

/**
 * A public list's "Sort by" form (the blog, the collections): a GET form, so each order has its own
 * address; with JavaScript a new choice applies at once and keeps the scroll position.
 */
export function SortForm({
  action,
  id,
  sort,
  choices,
  className,
}: {
  action: string;
  id: string;
  sort: string;
  choices: readonly { value: string; label: string }[];
  className: string;
}) {
  const submit = useSubmit();
  return (
    <Form
      method="get"
      action={action}
      className={className}
      onChange={(e) => submit(e.currentTarget, { preventScrollReset: true })}
    >
      <div>
        <label htmlFor={id} className="block text-sm font-semibold">
          Sort by
        </label>
        {/* Keyed by the sort, so a link or back button that changes the address shows its choice. */}
        <select
          id={id}
          name="sort"
          defaultValue={sort}
          key={sort}
          className="mt-1 min-h-11 rounded-xl border border-ink/30 bg-white px-3"
        >
          {choices.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <SortButton />
    </Form>
  );
}
