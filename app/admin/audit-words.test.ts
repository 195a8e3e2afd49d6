import { describe, expect, it } from "vitest";
import { fieldLabel, summaryWords, valueWords } from "./audit-words";

describe("the activity log's words", () => {
  it("names fields as their forms label them", () => {
    expect(fieldLabel("product", "priceCents")).toBe("Price");
    expect(fieldLabel("membership", "priceCents")).toBe("Price per month");
    expect(fieldLabel("settings", "ownerEmail")).toBe("Notification email");
    expect(fieldLabel("product", "someNewField")).toBe("Some New Field");
  });

  it("shows values as the forms do: rand, yes or no, South African time, lists", () => {
    expect(`${valueWords("priceCents", 27500)} → ${valueWords("priceCents", 30000)}`).toBe("R 275.00 → R 300.00");
    expect(valueWords("visible", false)).toBe("No");
    expect(valueWords("priceText", null)).toBe("(empty)");
    expect(valueWords("startsAt", "2026-11-28T16:00:00.000Z")).toBe("28 Nov 2026, 18:00");
    expect(valueWords("includes", ["Tea", "Fabric"])).toBe("Tea, Fabric");
    expect(valueWords("options", [{ type: "Early Bird", priceCents: 25000, capacity: 20 }])).toBe(
      "Early Bird R 250.00, 20 seats",
    );
    expect(valueWords("fulfilmentMethod", "collected")).toBe("Handed over");
  });

  it("rewrites a summary of stored field names, and leaves any other summary alone", () => {
    expect(summaryWords("product", "Changed priceCents, priceText of Candy Earrings")).toBe(
      "Changed Price and Price on request of Candy Earrings",
    );
    expect(summaryWords("settings", "Changed email, ownerEmail in the shop's settings")).toBe(
      "Changed Contact email and Notification email in the shop's settings",
    );
    expect(summaryWords("gallery", "Changed alt and caption of a gallery photo (/images/a.jpg)")).toBe(
      "Changed Alt text and Caption of a gallery photo (/images/a.jpg)",
    );
    expect(summaryWords("product", "Added Candy Earrings")).toBe("Added Candy Earrings");
  });
});
