import { describe, expect, it } from "vitest";
import { bagLinesFor } from "./bag-visitor";

describe("the benches' bag users", () => {
  const items = { products: [2, 6, 7], seat: 4 };

  it("put two or three different things in a bag, within what one checkout may buy", () => {
    const sizes = new Set<number>();
    for (let n = 0; n < 40; n++) {
      const lines = bagLinesFor(items, n);
      sizes.add(lines.length);
      expect(new Set(lines.map((l) => `${l.kind}:${l.id}`)).size, `visit ${n}`).toBe(lines.length);
      // One checkout holds at most 3 of a line and 5 units in all (the bag's budget).
      expect(Math.max(...lines.map((l) => l.quantity))).toBeLessThanOrEqual(3);
      expect(lines.reduce((units, l) => units + l.quantity, 0)).toBeLessThanOrEqual(5);
      // Always two products, so a bag whose seat was refused still checks out several lines.
      expect(lines.filter((l) => l.kind === "catalog").length).toBeGreaterThanOrEqual(2);
    }
    expect([...sizes].sort()).toEqual([2, 3]);
  });

  it("add a workshop seat to one visit in four while the page offers one, and none once it does not", () => {
    const seats = (seat: number | null) =>
      Array.from({ length: 40 }, (_, n) => bagLinesFor({ ...items, seat }, n)).filter((lines) =>
        lines.some((l) => l.kind === "ticket"),
      ).length;
    expect(seats(4)).toBe(10);
    expect(seats(null)).toBe(0);
  });
});
