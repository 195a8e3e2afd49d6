import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { priceLines, type DiscountCode, type LineToPrice, type MemberPerks } from "./price-lines";

const NO_PERKS: MemberPerks = {
  tierName: "Starter Bee",
  percentOffEvents: 0,
  percentOffProducts: 0,
  allEventsFree: false,
  freeTicketsPerMonth: 0,
  freeTicketEvents: "any",
  freeTicketsUsedThisMonth: 0,
};
const GLOW_BEE: MemberPerks = {
  ...NO_PERKS,
  tierName: "Glow Bee",
  freeTicketsPerMonth: 1,
  freeTicketEvents: ["event:1"],
};
const CREATIVE_BEE: MemberPerks = { ...NO_PERKS, tierName: "Creative Bee", percentOffEvents: 10 };

const sipStyle = (quantity: number, id = "sip"): LineToPrice => ({
  id,
  kind: "ticket",
  itemKey: "ticket-option:1",
  eventKey: "event:1",
  quantity,
  unitCents: 35000,
});
const workshopSeat: LineToPrice = {
  id: "seat",
  kind: "workshop",
  itemKey: "ticket-option:7",
  eventKey: "event:4",
  quantity: 1,
  unitCents: 25000,
};
const earrings = (quantity = 1): LineToPrice => ({
  id: "earrings",
  kind: "product",
  itemKey: "catalog:2",
  quantity,
  unitCents: 35000,
});
const LAUNCH20: DiscountCode = {
  code: "launch20",
  kind: "percent",
  amount: 20,
  scope: "products",
  minimumSpendCents: 0,
};

describe("priceLines", () => {
  it("gives a Glow Bee member this month's one free Sip & Style ticket, and the second seat at full price", () => {
    const first = priceLines([sipStyle(1)], { perks: GLOW_BEE });
    expect(first.totalCents).toBe(0);
    expect(first.lines[0]).toMatchObject({
      chargedCents: 0,
      freeTickets: 1,
      source: "perk",
      reason: "Glow Bee: free ticket, 1 of 1 this month",
    });

    const second = priceLines([sipStyle(1)], { perks: { ...GLOW_BEE, freeTicketsUsedThisMonth: 1 } });
    expect(second.totalCents).toBe(35000);
    expect(second.lines[0]).toMatchObject({ reason: null, freeTickets: 0 });

    const two = priceLines([sipStyle(2)], { perks: GLOW_BEE });
    expect(two.lines[0]).toMatchObject({ listCents: 70000, discountCents: 35000, chargedCents: 35000, freeTickets: 1 });
  });

  it("keeps free tickets to the events the tier names", () => {
    expect(priceLines([workshopSeat], { perks: GLOW_BEE }).totalCents).toBe(25000);
    expect(priceLines([workshopSeat], { perks: { ...GLOW_BEE, freeTicketEvents: "any" } }).totalCents).toBe(0);
  });

  it("takes 10% off a workshop seat for a Creative Bee member, in the words the owner sees", () => {
    const priced = priceLines([workshopSeat], { perks: CREATIVE_BEE });
    expect(priced.lines[0]).toMatchObject({ discountCents: 2500, chargedCents: 22500, reason: "10% Creative Bee" });
  });

  it("charges full price with no perks (a lapsed member is priced as anyone)", () => {
    const priced = priceLines([workshopSeat, earrings(2)]);
    expect(priced).toMatchObject({ listCents: 95000, discountCents: 0, totalCents: 95000, code: null });
  });

  it("makes every event free for a tier that says so, and never a product", () => {
    const queen = { ...NO_PERKS, tierName: "Upcycle Queen", allEventsFree: true };
    const priced = priceLines([sipStyle(2), workshopSeat, earrings()], { perks: queen });
    expect(priced.lines.map((l) => l.chargedCents)).toEqual([0, 0, 35000]);
    expect(priced.lines[0]!.reason).toBe("Upcycle Queen: all events free");
  });

  it("applies a code to the lines in its scope only, and says when it applies to nothing", () => {
    const priced = priceLines([earrings(), workshopSeat], { code: LAUNCH20 });
    expect(priced.lines.map((l) => l.discountCents)).toEqual([7000, 0]);
    expect(priced.lines[0]!.reason).toBe("20% LAUNCH20");
    expect(priced.code).toEqual({ code: "LAUNCH20", outcome: "applied", discountCents: 7000 });
    expect(priceLines([workshopSeat], { code: LAUNCH20 }).code?.outcome).toBe("nothing-applies");
  });

  it("refuses a code below its minimum spend, counted over the lines it applies to", () => {
    const code = { ...LAUNCH20, minimumSpendCents: 50000 };
    expect(priceLines([earrings(1), workshopSeat], { code }).code?.outcome).toBe("below-minimum");
    expect(priceLines([earrings(2)], { code }).code?.outcome).toBe("applied");
  });

  it("never applies a code to a renewal, only to a membership's first month", () => {
    const code: DiscountCode = { ...LAUNCH20, scope: "first-membership-month" };
    const join: LineToPrice = {
      id: "m",
      kind: "membership",
      itemKey: "membership:glow-bee",
      quantity: 1,
      unitCents: 35000,
    };
    expect(priceLines([{ ...join, firstMembershipMonth: true }], { code }).totalCents).toBe(28000);
    expect(priceLines([join], { code }).totalCents).toBe(35000);
  });

  it("takes the better of perk and code per line, never both, the perk on a tie", () => {
    const code: DiscountCode = { ...LAUNCH20, scope: "everything", amount: 15 };
    const priced = priceLines([workshopSeat, earrings()], { perks: CREATIVE_BEE, code });
    expect(priced.lines.map((l) => [l.source, l.discountCents])).toEqual([
      ["code", 3750],
      ["code", 5250],
    ]);
    const tie = priceLines([workshopSeat], { perks: CREATIVE_BEE, code: { ...code, amount: 10 } });
    expect(tie.lines[0]).toMatchObject({ source: "perk", discountCents: 2500 });
    expect(tie.code?.outcome).toBe("not-better");
  });

  it("shares a fixed amount across the lines it applies to, to the cent", () => {
    const code: DiscountCode = {
      code: "HIVE50",
      kind: "fixed",
      amount: 5000,
      scope: "everything",
      minimumSpendCents: 0,
    };
    const lines: LineToPrice[] = [
      { ...earrings(), unitCents: 10000 },
      { ...workshopSeat, unitCents: 10000 },
      { ...sipStyle(1), unitCents: 10000 },
    ];
    const priced = priceLines(lines, { code });
    expect(priced.lines.map((l) => l.discountCents)).toEqual([1667, 1667, 1666]);
    expect(priced.discountCents).toBe(5000);
    expect(priced.lines[0]!.reason).toBe("HIVE50: R 50.00 off");
    // More off than the lines cost: they come to nothing, never below.
    expect(priceLines([{ ...earrings(), unitCents: 3000 }], { code }).totalCents).toBe(0);
  });

  it("rounds each line's discount once, half up", () => {
    const code: DiscountCode = { ...LAUNCH20, amount: 15 };
    // 15% of R 0.10 is 1.5 cents: 2; of R 0.30, 4.5: 5; of R 0.20, exactly 3.
    expect([10, 30, 20].map((unitCents) => priceLines([{ ...earrings(), unitCents }], { code }).discountCents)).toEqual(
      [2, 5, 3],
    );
  });
});

const lineArb = fc.record({
  id: fc.uuid(),
  kind: fc.constantFrom("product", "service", "ticket", "workshop", "membership" as const),
  itemKey: fc.constantFrom("catalog:1", "catalog:2", "ticket-option:1", "ticket-option:2", "membership:glow-bee"),
  eventKey: fc.option(fc.constantFrom("event:1", "event:2"), { nil: undefined }),
  firstMembershipMonth: fc.boolean(),
  quantity: fc.integer({ min: 1, max: 10 }),
  unitCents: fc.integer({ min: 0, max: 5_000_000 }),
});
const perksArb = fc.record({
  tierName: fc.constantFrom("Glow Bee", "Creative Bee"),
  percentOffEvents: fc.integer({ min: 0, max: 100 }),
  percentOffProducts: fc.integer({ min: 0, max: 100 }),
  allEventsFree: fc.boolean(),
  freeTicketsPerMonth: fc.integer({ min: 0, max: 4 }),
  freeTicketEvents: fc.oneof(fc.constant("any" as const), fc.subarray(["event:1", "event:2"])),
  freeTicketsUsedThisMonth: fc.integer({ min: 0, max: 5 }),
});
const scopeArb = fc.oneof(
  fc.constantFrom("everything", "products", "events", "first-membership-month" as const),
  fc.record({ items: fc.subarray(["catalog:1", "ticket-option:2", "membership:glow-bee"]) }),
);
const codeArb = fc.oneof(
  fc.record({
    code: fc.constant("PCT"),
    kind: fc.constant("percent" as const),
    amount: fc.integer({ min: 1, max: 100 }),
    scope: scopeArb,
    minimumSpendCents: fc.integer({ min: 0, max: 100_000 }),
  }),
  fc.record({
    code: fc.constant("FIX"),
    kind: fc.constant("fixed" as const),
    amount: fc.integer({ min: 1, max: 10_000_000 }),
    scope: scopeArb,
    minimumSpendCents: fc.integer({ min: 0, max: 100_000 }),
  }),
);

describe("priceLines for any bag, perks and code", () => {
  it("charges the sum of its lines, none negative, none above its list price, and loses or makes no cent", () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { maxLength: 12 }),
        fc.option(perksArb, { nil: null }),
        fc.option(codeArb, { nil: null }),
        (lines, perks, code) => {
          const priced = priceLines(lines, { perks, code });
          for (const [i, line] of priced.lines.entries()) {
            expect(line.listCents).toBe(lines[i]!.unitCents * lines[i]!.quantity);
            expect(line.discountCents).toBeGreaterThanOrEqual(0);
            expect(line.chargedCents).toBeGreaterThanOrEqual(0);
            expect(line.chargedCents + line.discountCents).toBe(line.listCents);
            expect(Number.isInteger(line.chargedCents)).toBe(true);
          }
          const sum = priced.lines.reduce((total, line) => total + line.chargedCents, 0);
          expect(priced.totalCents).toBe(sum);
          expect(priced.totalCents + priced.discountCents).toBe(priced.listCents);
          const free = priced.lines.reduce((total, line) => total + line.freeTickets, 0);
          if (perks)
            expect(free).toBeLessThanOrEqual(Math.max(0, perks.freeTicketsPerMonth - perks.freeTicketsUsedThisMonth));
          // The code's own discount is what its lines took off, and a fixed code never takes more than its amount.
          const byCode = priced.lines.filter((l) => l.source === "code").reduce((t, l) => t + l.discountCents, 0);
          expect(priced.code?.discountCents ?? 0).toBe(byCode);
          if (code?.kind === "fixed") expect(byCode).toBeLessThanOrEqual(code.amount);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("never charges a line more with a perk or a code than without", () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 8 }), perksArb, codeArb, (lines, perks, code) => {
        const bare = priceLines(lines);
        const offered = priceLines(lines, { perks, code });
        offered.lines.forEach((line, i) => expect(line.chargedCents).toBeLessThanOrEqual(bare.lines[i]!.chargedCents));
      }),
    );
  });
});
