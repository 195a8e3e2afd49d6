import { useHydrated } from "~/components/ui/toast";

/**
 * A sort form's submit button. It stays in the form after JavaScript loads, when the select applies
 * the change itself: a form without a submit button cannot be used before (or without) JavaScript
 * and checkers report it (WCAG 3.2.2). Once hydrated it is out of sight until a keyboard focuses it.
 */
export function SortButton({ label = "Sort" }: { label?: string }) {
  const hydrated = useHydrated();
  return (
    <button type="submit" className={hydrated ? "btn-outline sr-only focus-visible:not-sr-only" : "btn-outline"}>
      {label}
    </button>
  );
}
