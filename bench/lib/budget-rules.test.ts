import { describe, expect, it } from "vitest";
import {
  floorOverTbtBudget,
  type LighthouseReport,
  type Measurement,
  measurementMisses,
  median,
  onlyTimingMisses,
  seoScoreWithout,
} from "./budget-rules";

const good: Measurement = {
  performance: 99,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  lcpMs: 1500,
  tbtMs: 40,
  cls: 0,
  jsKb: 120,
  benchmarkIndex: 2000,
};

describe("page budget rules", () => {
  it("finds nothing to say about a page within every budget, including figures just inside it", () => {
    expect(measurementMisses(good)).toEqual([]);
    expect(
      measurementMisses({ ...good, performance: 95, bestPractices: 96, lcpMs: 1999, tbtMs: 99, cls: 0.019, jsKb: 130 }),
    ).toEqual([]);
  });

  it("names each figure that misses, at the budget's own edges", () => {
    expect(measurementMisses({ ...good, lcpMs: 2000, tbtMs: 100, cls: 0.02, jsKb: 130.1 })).toEqual([
      "LCP 2000 ms >= 2000 ms",
      "TBT 100 ms >= 100 ms",
      "CLS 0.02 >= 0.02",
      "JS 130.1 KB > 130 KB",
    ]);
    expect(measurementMisses({ ...good, performance: 94, accessibility: 98, bestPractices: 95, seo: 92 })).toEqual([
      "performance 94 < 95",
      "accessibility 98 < 100",
      "best practices 95 < 96",
      "SEO 92 < 100",
    ]);
  });

  it("measures a route again only when every miss is a timing figure", () => {
    expect(onlyTimingMisses([])).toBe(false);
    expect(onlyTimingMisses(measurementMisses({ ...good, tbtMs: 130 }))).toBe(true);
    expect(onlyTimingMisses(measurementMisses({ ...good, performance: 93, lcpMs: 2300, tbtMs: 130 }))).toBe(true);
    // The page's own properties do not change between runs: a miss there stands, even beside a timing miss.
    expect(onlyTimingMisses(measurementMisses({ ...good, tbtMs: 130, accessibility: 98 }))).toBe(false);
    expect(onlyTimingMisses(measurementMisses({ ...good, jsKb: 131 }))).toBe(false);
    expect(onlyTimingMisses(measurementMisses({ ...good, cls: 0.1 }))).toBe(false);
    expect(onlyTimingMisses(measurementMisses({ ...good, seo: 92, lcpMs: 2100 }))).toBe(false);
  });

  it("says so when the floor alone reaches the TBT budget, and only then", () => {
    expect(floorOverTbtBudget(0, "before the routes")).toBeUndefined();
    expect(floorOverTbtBudget(99, "before the routes")).toBeUndefined();
    expect(floorOverTbtBudget(100, "before the routes")).toBe(
      "floor over budget (before the routes): the blank page with the site's headers alone had TBT 100 ms >= 100 ms, " +
        "so no route measured after it could meet the TBT budget in this run",
    );
    expect(floorOverTbtBudget(264, "before the second measurements")).toMatch(
      /^floor over budget \(before the second measurements\): .* TBT 264 ms >= 100 ms/,
    );
  });

  it("takes the middle value, or the mean of the two middle ones", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([167, 40, 80])).toBe(80);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("recomputes the SEO score as a weighted mean without the audits left out", () => {
    const report: LighthouseReport = {
      categories: {
        seo: {
          score: 0.66,
          auditRefs: [
            { id: "is-crawlable", weight: 4.043 },
            { id: "document-title", weight: 1 },
            { id: "meta-description", weight: 1 },
            { id: "structured-data", weight: 0 },
            { id: "hreflang", weight: 1 },
          ],
        },
      },
      audits: {
        "is-crawlable": { score: 0 },
        "document-title": { score: 1 },
        "meta-description": { score: 1 },
        "structured-data": { score: null },
        hreflang: { score: null },
      },
    };
    expect(seoScoreWithout(report, ["is-crawlable"])).toBe(100);
    expect(seoScoreWithout(report, [])).toBe(33);
    report.audits["meta-description"] = { score: 0 };
    expect(seoScoreWithout(report, ["is-crawlable"])).toBe(50);
  });
});
