import type { SEGMENT_KINDS } from "./newsletter-schema";

/** The rule that lets the shop write to each segment, as the picker says it (POPIA section 69). */
export const SEGMENT_RULES: Record<(typeof SEGMENT_KINDS)[number], { label: string; rule: string }> = {
  subscribers: {
    label: "All subscribers",
    rule: "Consent: each confirmed she wants the news (section 69(1)(a)); the evidence is kept.",
  },
  tiers: {
    label: "Members of chosen tiers",
    rule: "Membership: the tiers promise monthly posts, so every active member receives it, except one who refused.",
  },
  attendees: {
    label: "Past attendees of chosen events",
    rule:
      "Existing customers (section 69(3)): only about workshops and events like the ones they attended; " +
      "every message offers the refusal and anyone who refused is left out.",
  },
  buyers: {
    label: "Customers who bought chosen products",
    rule:
      "Existing customers (section 69(3)): only about goods like the ones they bought; " +
      "every message offers the refusal and anyone who refused is left out.",
  },
};
