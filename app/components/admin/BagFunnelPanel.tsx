import type { DashboardData } from "~/analytics/dashboard.server";
import { Panel } from "./Panel";

/**
 * Where buyers with a bag stop (issue 39): added to bag, bag viewed, checkout started, paid, each with
 * its share of the step before, as the Checkout Funnel shows the spec's steps.
 */
export function BagFunnelPanel({ steps, period }: { steps: DashboardData["bagFunnel"]; period: string }) {
  const first = steps[0]?.count ?? 0;
  const paid = steps[steps.length - 1]?.count ?? 0;
  return (
    <Panel title="Bag Funnel" period={period}>
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
        Bags paid of those added to: {first > 0 ? `${Math.round((paid / first) * 100)}%` : "0%"}
      </p>
    </Panel>
  );
}
