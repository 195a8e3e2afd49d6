import { describe, expect, it } from "vitest";
import { dayShortMonth, paysInWords } from "./pays-words";

describe("how a member pays, in words", () => {
  it("says when a card renews, that it failed, or that she renews by email", () => {
    expect(paysInWords({ kind: "card", renewsOn: "2025-03-31", cardFailed: false })).toBe("Card, renews 31 Mar");
    expect(paysInWords({ kind: "card", renewsOn: "2025-03-31", cardFailed: true })).toBe("Card failed");
    expect(paysInWords({ kind: "card", renewsOn: null, cardFailed: false })).toBe("Card");
    expect(paysInWords({ kind: "email" })).toBe("Renews by email");
    expect(paysInWords({ kind: "card", renewsOn: "2025-05-31", cardFailed: false, pausedUntil: "2025-05-31" })).toBe(
      "Paused until 31 May",
    );
    expect(dayShortMonth("2026-01-01")).toBe("1 Jan");
  });
});
