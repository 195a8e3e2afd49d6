/** Seed content for the two membership tier sets (spec section 9). Prices are per month. */
export interface MembershipSeed {
  slug: string;
  tierSet: "newer" | "older";
  name: string;
  /** null for a plan priced "Contact Us": enquire by email instead of checkout. */
  priceCents: number | null;
  priceText: string;
  description: string;
  features: string[];
  popular: boolean;
  sortOrder: number;
}

/** A tier's perks as the pricing rule reads them (decision 127); the owner changes them in /admin/memberships. */
export interface TierPerksSeed {
  perkPercentOffEvents: number;
  perkFreeTicketsPerMonth: number;
  perkFreeTicketEvents: "any" | string[];
  perkAllEventsFree: boolean;
  perkPercentOffProducts: number;
}

const NO_PERKS: TierPerksSeed = {
  perkPercentOffEvents: 0,
  perkFreeTicketsPerMonth: 0,
  perkFreeTicketEvents: "any",
  perkAllEventsFree: false,
  perkPercentOffProducts: 0,
};
/** "Free workshops": the two workshops, up to four seats a month between them (decision 127). */
const FREE_WORKSHOPS: TierPerksSeed = {
  ...NO_PERKS,
  perkFreeTicketsPerMonth: 4,
  perkFreeTicketEvents: ["tablecloth-workshop", "radiance-reset"],
};
const ALL_EVENTS_FREE: TierPerksSeed = { ...NO_PERKS, perkAllEventsFree: true };
/** "Workshop discounts of 10-15%": the lower end, so the shop never promises more than the owner gives. */
const CREATIVE_BEE: TierPerksSeed = { ...NO_PERKS, perkPercentOffEvents: 10 };
/** The spec's older set is not cumulative: Glow Bee is the free ticket alone, no workshop discount (decision 136). */
const GLOW_BEE: TierPerksSeed = {
  ...NO_PERKS,
  perkFreeTicketsPerMonth: 1,
  perkFreeTicketEvents: ["sip-style"],
};

/**
 * What each seeded tier's text promises, as perks (the SQL of migrations "pricing" and "perks3" gives existing
 * databases the same). Purpose Bee's promise is a monthly check-in, which no price perk expresses (decision 136).
 */
export const SEEDED_TIER_PERKS: Record<string, TierPerksSeed> = {
  "glow-bee-journey": FREE_WORKSHOPS,
  "purposeful-bee": FREE_WORKSHOPS,
  "upcycle-kings-queens": ALL_EVENTS_FREE,
  "vip-sustainable-human": ALL_EVENTS_FREE,
  "creative-bee": CREATIVE_BEE,
  "glow-bee": GLOW_BEE,
  "upcycle-queen": ALL_EVENTS_FREE,
  "vip-sustainable-woman": ALL_EVENTS_FREE,
};

const tiersSeed: MembershipSeed[] = [
  {
    slug: "style-starter",
    tierSet: "newer",
    name: "The Style Starter",
    priceCents: 15000,
    priceText: "R150",
    description: "Begin your journey with a community that styles, heals and grows together.",
    features: ["Monthly posts", "Art-healing sessions", "A warm community focus"],
    popular: false,
    sortOrder: 1,
  },
  {
    slug: "creative-healer",
    tierSet: "newer",
    name: "The Creative Healer",
    priceCents: 20000,
    priceText: "R200",
    description: "Everything in The Style Starter, plus creative tools to rewrite your story.",
    features: [
      "Everything in The Style Starter",
      "Storytelling sessions",
      "Belief rewriting",
      "A one-month creative challenge",
      "Online support",
    ],
    popular: false,
    sortOrder: 2,
  },
  {
    slug: "glow-bee-journey",
    tierSet: "newer",
    name: "The Glow Bee Journey",
    priceCents: 45000,
    priceText: "R450",
    description: "Everything in The Creative Healer, plus weekly styling and confidence support.",
    features: [
      "Everything in The Creative Healer",
      "Weekly online styling meetups",
      "Confidence sessions",
      "Wardrobe and upcycling advice",
      "Free workshops",
      "Starter coaching",
    ],
    popular: true,
    sortOrder: 3,
  },
  {
    slug: "purposeful-bee",
    tierSet: "newer",
    name: "The Purposeful Bee",
    priceCents: 75000,
    priceText: "R750",
    description: "Everything in The Glow Bee Journey, plus personal guidance to turn pain into purpose.",
    features: [
      "Everything in The Glow Bee Journey",
      "Turning pain into purpose",
      "Monthly personal guidance",
      "Weekly personal guidance",
    ],
    popular: false,
    sortOrder: 4,
  },
  {
    slug: "upcycle-kings-queens",
    tierSet: "newer",
    name: "Upcycle Kings and Queens",
    priceCents: null,
    priceText: "Contact Us",
    description: "Everything in The Purposeful Bee, plus hands-on upcycling and every event free.",
    features: [
      "Everything in The Purposeful Bee",
      "Monthly upcycling sessions",
      "Healing-fabric knowledge",
      "Free access to all events",
    ],
    popular: false,
    sortOrder: 5,
  },
  {
    slug: "vip-sustainable-human",
    tierSet: "newer",
    name: "VIP Sustainable Human/Woman",
    priceCents: 150000,
    priceText: "R1500",
    description: "Our most complete membership: full access and personal styling.",
    features: [
      "Everything in Upcycle Kings and Queens",
      "Full event access",
      "A five-day capsule wardrobe reset",
      "A one-on-one styling or shopping session",
      "Priority invitation to collaborations",
    ],
    popular: false,
    sortOrder: 6,
  },
  {
    slug: "starter-bee",
    tierSet: "older",
    name: "Starter Bee",
    priceCents: 6000,
    priceText: "R60",
    description: "A gentle start: join the hive and grow with us.",
    features: ["Community access", "Monthly style inspiration"],
    popular: false,
    sortOrder: 11,
  },
  {
    slug: "creative-bee",
    tierSet: "older",
    name: "Creative Bee",
    priceCents: 15000,
    priceText: "R150",
    description: "Our most popular plan, with savings on workshops.",
    features: ["Everything in Starter Bee", "Workshop discounts of 10-15%"],
    popular: true,
    sortOrder: 12,
  },
  {
    slug: "glow-bee",
    tierSet: "older",
    name: "Glow Bee",
    priceCents: 35000,
    priceText: "R350",
    description: "Glow with us at Sip & Style every month.",
    features: ["Everything in Starter Bee", "One free Sip & Style ticket per month"],
    popular: false,
    sortOrder: 13,
  },
  {
    slug: "purpose-bee",
    tierSet: "older",
    name: "Purpose Bee",
    priceCents: 50000,
    priceText: "R500",
    description: "Personal time with us every month.",
    features: ["Everything in Starter Bee", "30-minute monthly one-on-one check-in"],
    popular: false,
    sortOrder: 14,
  },
  {
    slug: "upcycle-queen",
    tierSet: "older",
    name: "Upcycle Queen",
    priceCents: 75000,
    priceText: "R750",
    description: "Every event, free.",
    features: ["Everything in Purpose Bee", "All events free"],
    popular: false,
    sortOrder: 15,
  },
  {
    slug: "vip-sustainable-woman",
    tierSet: "older",
    name: "VIP Sustainable Woman",
    priceCents: 95000,
    priceText: "R950",
    description: "The complete experience for the sustainable woman.",
    features: ["Everything in Upcycle Queen", "VIP treatment at every event"],
    popular: false,
    sortOrder: 16,
  },
];

export const membershipsSeed: (MembershipSeed & TierPerksSeed)[] = tiersSeed.map((tier) => ({
  ...tier,
  ...(SEEDED_TIER_PERKS[tier.slug] ?? NO_PERKS),
}));
