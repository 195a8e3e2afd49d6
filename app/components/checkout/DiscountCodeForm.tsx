import { Form } from "react-router";
import type { CodeView } from "~/pricing/discount-code-words";

const fieldClass =
  "mt-1 block w-full min-h-11 rounded-md border border-ink/30 bg-white px-3 py-2 text-ink uppercase focus:border-ink " +
  "focus:outline-2 focus:outline-offset-2 focus:outline-honey aria-[invalid=true]:border-red-800";

/**
 * The checkout's "Discount code" field (issue 40). A GET form to the same page: the code rides the URL,
 * so the page is priced with it by the server, with or without JavaScript, and the order form, which
 * posts to that URL, is priced with the same code. `keep` are the URL's other values (item, size, bag).
 */
export function DiscountCodeForm({ view, keep }: { view: CodeView; keep: Record<string, string> }) {
  const described = [view.error ? "discount-code-error" : null, view.note ? "discount-code-note" : null]
    .filter(Boolean)
    .join(" ");
  return (
    <Form method="get" className="card p-6" preventScrollReset>
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor="discount-code" className="block text-sm font-medium text-ink">
        Discount code
      </label>
      <div className="mt-1 flex flex-wrap gap-3">
        <input
          id="discount-code"
          name="code"
          defaultValue={view.typed}
          maxLength={40}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-invalid={view.error ? true : undefined}
          aria-describedby={described || undefined}
          className={`${fieldClass} mt-0 min-w-0 flex-1 basis-40`}
        />
        <button type="submit" className="btn-outline min-h-11">
          Apply
        </button>
      </div>
      {view.error ? (
        <p id="discount-code-error" className="mt-2 text-sm font-semibold text-red-800" role="alert">
          {view.error}
        </p>
      ) : null}
      {view.note ? (
        <p id="discount-code-note" className="mt-2 text-sm text-ink" role="status">
          {view.note}
        </p>
      ) : null}
    </Form>
  );
}
