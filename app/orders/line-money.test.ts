import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineChargedCents, unitsRefundCents } from "./line-money";

describe("line money", () => {
  it("charges list price times quantity less the discount", () => {
    expect(lineChargedCents({ unitPriceCents: 25000, quantity: 2, discountCents: 5000 })).toBe(45000);
  });

  it("gives back a unit's share, the odd cent on the later unit", () => {
    const line = { unitPriceCents: 1000, quantity: 3, discountCents: 1 }; // charged 2,999
    expect(unitsRefundCents(line, 0, 1)).toBe(999);
    expect(unitsRefundCents(line, 1, 1)).toBe(1000);
    expect(unitsRefundCents(line, 2, 1)).toBe(1000);
  });

  it("refuses to return more units than are left", () => {
    expect(() => unitsRefundCents({ unitPriceCents: 100, quantity: 2, discountCents: 0 }, 1, 2)).toThrow(RangeError);
  });

  it("returning every unit, in any steps, gives back exactly what was charged", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 0, max: 500_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.array(fc.integer({ min: 1, max: 10 }), { maxLength: 10 }),
        (quantity, unitPriceCents, discountPercent, steps) => {
          const discountCents = Math.floor((unitPriceCents * quantity * discountPercent) / 100);
          const line = { unitPriceCents, quantity, discountCents };
          let returned = 0;
          let given = 0;
          for (const step of steps) {
            const units = Math.min(step, quantity - returned);
            const cents = unitsRefundCents(line, returned, units);
            expect(cents).toBeGreaterThanOrEqual(0);
            given += cents;
            returned += units;
          }
          given += unitsRefundCents(line, returned, quantity - returned);
          expect(given).toBe(lineChargedCents(line));
        },
      ),
    );
  });
});
