/** Marks the simulator-only demo workshop wherever it is shown (decision 081). */
export function DemoBadge() {
  return (
    <span className="ml-3 inline-block rounded-full bg-honey px-3 py-0.5 align-middle font-sans text-sm font-bold text-ink">
      Demo
    </span>
  );
}
