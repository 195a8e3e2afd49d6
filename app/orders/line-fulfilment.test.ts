import { describe, expect, it } from "vitest";
import { fulfilmentWaits, fulfilmentWords } from "./fulfilment-words";
import { buyerFulfilmentWords, lineCounts, lineFulfilment } from "./line-fulfilment";

const line = (over: Partial<Parameters<typeof lineFulfilment>[0]> = {}) => ({
  catalogItemId: 1,
  quantity: 2,
  fulfilmentStatus: "unfulfilled",
  unitsRefunded: 0,
  ...over,
});
const paid = { orderType: "product", status: "paid", fulfilment: "unfulfilled", fulfilmentMethod: null };

describe("per-line fulfilment words", () => {
  it("a line waits until marked or every unit is refunded; a ticket line never waits", () => {
    expect(lineFulfilment(line())).toBe("waiting");
    expect(lineFulfilment(line({ unitsRefunded: 1 }))).toBe("waiting");
    expect(lineFulfilment(line({ unitsRefunded: 2 }))).toBe("refunded");
    expect(lineFulfilment(line({ fulfilmentStatus: "fulfilled", unitsRefunded: 2 }))).toBe("sent");
    expect(lineFulfilment(line({ catalogItemId: null }))).toBe("none");
  });

  it("several lines read Unfulfilled, 2 of 3 items sent, Fulfilled; one line reads as it always did", () => {
    const three = (sent: number) =>
      lineCounts([0, 1, 2].map((i) => line({ fulfilmentStatus: i < sent ? "fulfilled" : "unfulfilled" })));
    expect(fulfilmentWords({ ...paid, lines: three(0) })).toBe("Unfulfilled");
    expect(fulfilmentWords({ ...paid, lines: three(2) })).toBe("2 of 3 items sent");
    expect(fulfilmentWaits({ ...paid, lines: three(2) })).toBe(true);
    expect(fulfilmentWords({ ...paid, lines: three(3) })).toBe("Fulfilled");
    expect(fulfilmentWaits({ ...paid, lines: three(3) })).toBe(false);
    expect(fulfilmentWords({ ...paid, lines: lineCounts([line()]) })).toBe("To post or hand over");
    expect(fulfilmentWords(paid)).toBe("To post or hand over");
    expect(fulfilmentWords({ ...paid, fulfilment: "fulfilled", fulfilmentMethod: "collected" })).toBe("Handed over");
    expect(fulfilmentWords({ ...paid, status: "pending", lines: three(0) })).toBe("");
  });

  it("a line refunded away is not counted as waiting", () => {
    const counts = lineCounts([
      line({ fulfilmentStatus: "fulfilled", fulfilmentMethod: "collected" }),
      line({ unitsRefunded: 2 }),
    ]);
    expect(fulfilmentWaits({ ...paid, lines: counts })).toBe(false);
    expect(fulfilmentWords({ ...paid, lines: counts })).toBe("Handed over");
    expect(
      fulfilmentWords({ ...paid, lines: lineCounts([line({ unitsRefunded: 2 }), line({ unitsRefunded: 2 })]) }),
    ).toBe("Nothing to send");
  });

  it("the buyer reads Being prepared, the summary, or how her one item went", () => {
    expect(buyerFulfilmentWords({ orderType: "product", fulfilmentMethod: null, lines: lineCounts([line()]) })).toBe(
      "Being prepared",
    );
    expect(
      buyerFulfilmentWords({
        orderType: "product",
        fulfilmentMethod: null,
        lines: lineCounts([line({ fulfilmentStatus: "fulfilled" }), line()]),
      }),
    ).toBe("1 of 2 items sent");
    expect(
      buyerFulfilmentWords({ orderType: "service", fulfilmentMethod: "service done", lines: lineCounts([]) }),
    ).toBe("Done");
    expect(buyerFulfilmentWords({ orderType: "ticket", fulfilmentMethod: null, lines: lineCounts([]) })).toBeNull();
  });
});
