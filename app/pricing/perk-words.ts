/**
 * A tier's perks in words, the same on the tier pages, /account and /admin/memberships: the sentences
 * a member reads are the ones the pricing rule keeps (decision 127).
 */
export interface TierPerks {
  perkPercentOffEvents: number;
  perkFreeTicketsPerMonth: number;
  perkFreeTicketEvents: "any" | string[];
  perkAllEventsFree: boolean;
  perkPercentOffProducts: number;
}

/** "A and B", "A, B and C". */
function listInWords(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/**
 * One sentence per perk, e.g. "10% off workshops and events", "1 free ticket a month for Sip & Style at Nanas".
 * `eventTitles` names the chosen events; an event no longer known is left out rather than shown by its id.
 */
export function perksInWords(perks: TierPerks, eventTitles: Record<string, string>): string[] {
  const words: string[] = [];
  if (perks.perkAllEventsFree) {
    words.push("All events and workshops free");
  } else {
    if (perks.perkFreeTicketsPerMonth > 0) {
      const count = perks.perkFreeTicketsPerMonth;
      const tickets = `${count} free ${count === 1 ? "ticket" : "tickets"} a month`;
      const titles =
        perks.perkFreeTicketEvents === "any"
          ? []
          : perks.perkFreeTicketEvents.map((id) => eventTitles[id]).filter((t): t is string => !!t);
      if (perks.perkFreeTicketEvents === "any") words.push(`${tickets} for any event or workshop`);
      // Free tickets only for events no longer known can never be used: no promise is shown for them.
      else if (titles.length) words.push(`${tickets} for ${listInWords(titles)}`);
    }
    if (perks.perkPercentOffEvents > 0) words.push(`${perks.perkPercentOffEvents}% off workshops and events`);
  }
  if (perks.perkPercentOffProducts > 0) words.push(`${perks.perkPercentOffProducts}% off products`);
  return words;
}

/** Perks are for a member whose membership is active, or due and not yet lapsed (issue 40); never lapsed or cancelled. */
export const statusKeepsPerks = (status: string) => status === "active" || status === "due";

/** What /account says about perks, for the member's status. */
export function memberPerksInWords(status: string, perks: string[]): string {
  if (!perks.length) return "None with this plan.";
  if (!statusKeepsPerks(status)) return `None while your membership is ${status}: renew to get ${perks.join("; ")}.`;
  return `${perks.join("; ")}.`;
}
