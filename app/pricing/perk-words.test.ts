import { describe, expect, it } from "vitest";
import { memberPerksInWords, perksInWords, type TierPerks } from "./perk-words";

const none: TierPerks = {
  perkPercentOffEvents: 0,
  perkFreeTicketsPerMonth: 0,
  perkFreeTicketEvents: "any",
  perkAllEventsFree: false,
  perkPercentOffProducts: 0,
};
const titles = { "sip-style": "Sip & Style at Nanas", "radiance-reset": "Radiance Reset", "x-1": "Heritage Day" };

describe("perksInWords", () => {
  it("says nothing for a tier without perks", () => {
    expect(perksInWords(none, titles)).toEqual([]);
  });

  it("names a free ticket for one event and a workshop discount together", () => {
    expect(
      perksInWords(
        { ...none, perkPercentOffEvents: 10, perkFreeTicketsPerMonth: 1, perkFreeTicketEvents: ["sip-style"] },
        titles,
      ),
    ).toEqual(["1 free ticket a month for Sip & Style at Nanas", "10% off workshops and events"]);
  });

  it("lists several chosen events and counts plural tickets", () => {
    expect(
      perksInWords(
        { ...none, perkFreeTicketsPerMonth: 4, perkFreeTicketEvents: ["sip-style", "radiance-reset", "x-1"] },
        titles,
      ),
    ).toEqual(["4 free tickets a month for Sip & Style at Nanas, Radiance Reset and Heritage Day"]);
  });

  it("says any event when the free tickets are for any, and nothing when their events are gone", () => {
    expect(perksInWords({ ...none, perkFreeTicketsPerMonth: 2 }, titles)).toEqual([
      "2 free tickets a month for any event or workshop",
    ]);
    expect(perksInWords({ ...none, perkFreeTicketsPerMonth: 1, perkFreeTicketEvents: ["gone"] }, titles)).toEqual([]);
  });

  it("lets all events free stand for the event perks, and keeps the product discount", () => {
    expect(
      perksInWords(
        {
          ...none,
          perkAllEventsFree: true,
          perkPercentOffEvents: 10,
          perkFreeTicketsPerMonth: 1,
          perkPercentOffProducts: 5,
        },
        titles,
      ),
    ).toEqual(["All events and workshops free", "5% off products"]);
  });
});

describe("memberPerksInWords", () => {
  const perks = ["1 free ticket a month for Sip & Style at Nanas", "10% off workshops and events"];
  it("lists the perks of an active or due member", () => {
    expect(memberPerksInWords("active", perks)).toBe(
      "1 free ticket a month for Sip & Style at Nanas; 10% off workshops and events.",
    );
    expect(memberPerksInWords("due", perks)).toBe(memberPerksInWords("active", perks));
  });
  it("says a lapsed or cancelled member has none, and what renewing gives", () => {
    expect(memberPerksInWords("lapsed", perks)).toMatch(/^None while your membership is lapsed: renew to get 1 free/);
    expect(memberPerksInWords("cancelled", perks)).toMatch(/^None while your membership is cancelled/);
  });
  it("says when the plan has none", () => {
    expect(memberPerksInWords("active", [])).toBe("None with this plan.");
  });
});
