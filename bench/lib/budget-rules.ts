// The page budget of issue 6 and the rules that judge a route by it, apart from the Lighthouse runs
// themselves so that they can be tested.

export const BUDGET = {
  performance: 95,
  accessibility: 100,
  bestPractices: 96,
  seo: 100,
  lcpMs: 2000,
  tbtMs: 100,
  cls: 0.02,
  // Issue 22: on every public route, measured in the browser.
  jsKb: 130,
};

export interface Measurement {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsKb: number;
  /** Lighthouse's measure of the machine's CPU speed during the run (higher is faster); not budgeted. */
  benchmarkIndex: number;
}

export interface LighthouseReport {
  environment?: { benchmarkIndex?: number };
  categories: Record<string, { score: number | null; auditRefs?: { id: string; weight: number }[] }>;
  audits: Record<
    string,
    {
      score?: number | null;
      numericValue?: number;
      details?: { items?: { resourceType?: string; transferSize?: number; url?: string }[] };
    }
  >;
}

/** The SEO category's score recomputed as Lighthouse does (weighted mean), leaving out the given audits. */
export function seoScoreWithout(report: LighthouseReport, leaveOut: string[]): number {
  let weighted = 0;
  let weights = 0;
  for (const { id, weight } of report.categories.seo?.auditRefs ?? []) {
    const score = report.audits[id]?.score;
    if (leaveOut.includes(id) || weight === 0 || score === null || score === undefined) continue;
    weighted += weight * score;
    weights += weight;
  }
  return weights ? Math.round((weighted / weights) * 100) : 0;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Figures that a busy shared machine moves from run to run; the others are properties of the page. */
const TIMING_MISS = /^(performance|LCP|TBT) /;

export function measurementMisses(m: Measurement): string[] {
  const out: string[] = [];
  if (m.performance < BUDGET.performance) out.push(`performance ${m.performance} < ${BUDGET.performance}`);
  if (m.accessibility < BUDGET.accessibility) out.push(`accessibility ${m.accessibility} < ${BUDGET.accessibility}`);
  if (m.bestPractices < BUDGET.bestPractices) out.push(`best practices ${m.bestPractices} < ${BUDGET.bestPractices}`);
  if (m.seo < BUDGET.seo) out.push(`SEO ${m.seo} < ${BUDGET.seo}`);
  if (m.lcpMs >= BUDGET.lcpMs) out.push(`LCP ${m.lcpMs} ms >= ${BUDGET.lcpMs} ms`);
  if (m.tbtMs >= BUDGET.tbtMs) out.push(`TBT ${m.tbtMs} ms >= ${BUDGET.tbtMs} ms`);
  if (m.cls >= BUDGET.cls) out.push(`CLS ${m.cls} >= ${BUDGET.cls}`);
  if (m.jsKb > BUDGET.jsKb) out.push(`JS ${m.jsKb} KB > ${BUDGET.jsKb} KB`);
  return out;
}

/**
 * Whether a route's median missed, and only on figures that a busy machine moves from run to run: such a
 * route is measured once more (decision 067). A miss on anything else is the page's own and stands.
 */
export function onlyTimingMisses(misses: string[]): boolean {
  return misses.length > 0 && misses.every((miss) => TIMING_MISS.test(miss));
}

/**
 * The line a run prints when its floor, the blank page with the site's headers, is itself at or over
 * the TBT budget: no route measured after it can meet that budget in the same run, whatever the site
 * does, so its TBT misses say nothing about the site (decision 077). None when the floor is within budget.
 */
export function floorOverTbtBudget(floorTbtMs: number, when: string): string | undefined {
  if (floorTbtMs < BUDGET.tbtMs) return undefined;
  return (
    `floor over budget (${when}): the blank page with the site's headers alone had TBT ${floorTbtMs} ms ` +
    `>= ${BUDGET.tbtMs} ms, so no route measured after it could meet the TBT budget in this run`
  );
}
