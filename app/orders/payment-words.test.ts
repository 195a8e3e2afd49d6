import { describe, expect, it } from "vitest";
import { paidByWords, providerName } from "./payment-words";

describe("how the owner reads an order's payment", () => {
  it("says what made a free order free: a discount code it used, or else a member's perk", () => {
    expect(paidByWords("free")).toBe("Free (member perk)");
    expect(paidByWords("free", true)).toBe("Free (discount code)");
    expect(paidByWords("yoco", true)).toBe("Paid by card (Yoco)");
    expect(paidByWords("simulator")).toBe("Paid by card (simulator: no money moved)");
    expect(providerName("payfast")).toBe("PayFast");
  });
});
