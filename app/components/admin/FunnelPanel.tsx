import type { DashboardData } from "~/analytics/dashboard.server";
import { Panel } from "./Panel";

/**
 * Where buyers stop: each step of a funnel with its share of the step before, and the share of the first step
 * that reached the last. The spec's Checkout Funnel and the bag's (issue 39) are both drawn by it.
 */
export function FunnelPanel({
  title,
  steps,
  period,
  overall,
}: {
  title: string;
  steps: DashboardData["funnel"];
  period: string;
  /** The words before the first-to-last share: "Overall conversion". */
  overall: string;
}) {
  const first = steps[0]?.count ?? 0;
  const last = steps[steps.length - 1]?.count ?? 0;
  return (
    <Panel title={title} period={period}>
      <ol className="space-y-2 text-sm">
        {steps.map((step) => (
          <li
            key={step.step}
            className="flex flex-wrap items-baseline justify-between gap-2 border-b border-ink/5 pb-2"
          >
            <span className="font-semibold">{step.step}</span>
            <span>
              {step.count.toLocaleString("en-ZA")}
              {step.fromPrevious === null ? "" : ` (${step.fromPrevious}% of previous step)`}
            </span>
          </li>
        ))}
      </ol>
      <p className="mt-3 text-sm text-ink-soft">
        {overall}: {first > 0 ? `${Math.round((last / first) * 100)}%` : "0%"}
      </p>
    </Panel>
  );
}
