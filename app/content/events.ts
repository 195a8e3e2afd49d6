/** Seed content for events, workshops and their ticket options (spec section 9). Times are SAST (+02:00). */
export interface TicketOptionSeed {
  type: string;
  priceCents: number;
  description: string;
  availableFrom: string | null;
  availableUntil: string | null;
  capacity: number | null;
}

export interface EventSeed {
  id: string;
  title: string;
  dates: string;
  timeText: string | null;
  startsAt: string | null;
  endsAt: string | null;
  recurring: string | null;
  focus: string;
  priceText: string;
  description: string;
  descriptionPoints: string[];
  includes: string[];
  location: string;
  participants: string;
  earlyBird: string | null;
  images: string[];
  ticketsOnSale: boolean;
  sortOrder: number;
  ticketOptions: TicketOptionSeed[];
}

export const eventsSeed: EventSeed[] = [
  {
    id: "sip-style",
    title: "Sip & Style at Nanas",
    dates: "24 September 2025",
    timeText: "14:00 - 18:00",
    startsAt: "2025-09-24T14:00:00+02:00",
    endsAt: "2025-09-24T18:00:00+02:00",
    recurring: null,
    focus: "Styling tips, networking, social media storytelling",
    priceText: "From R350",
    description:
      "An afternoon of bubbles, style and sisterhood at Nanas. Learn how to style upcycled pieces, meet women who " +
      "love fashion with a conscience, and tell your style story on social media.",
    descriptionPoints: [
      "Styling tips for upcycled and pre-loved pieces",
      "Networking with creative, like-minded women",
      "Social media storytelling for your personal brand",
    ],
    includes: ["Welcome drink", "Styling demonstration", "Light snacks", "Goodie bag"],
    location: "Nanas, Johannesburg",
    participants: "Limited to 40 guests",
    earlyBird: "Early bird R350",
    images: [
      "/images/events/sip-style-1.svg",
      "/images/events/sip-style-2.svg",
      "/images/events/sip-style-3.svg",
      "/images/events/sip-style-4.svg",
    ],
    ticketsOnSale: true,
    sortOrder: 1,
    ticketOptions: [
      {
        type: "Early Bird",
        priceCents: 35000,
        description: "Book early and save",
        availableFrom: null,
        availableUntil: "2025-09-14T23:59:59+02:00",
        capacity: null,
      },
      {
        type: "Come With a Friend",
        priceCents: 50000,
        description: "Two tickets: bring your bestie",
        availableFrom: null,
        availableUntil: null,
        capacity: null,
      },
      {
        type: "Normal Price",
        priceCents: 45000,
        description: "Standard entry",
        availableFrom: "2025-09-15T00:00:00+02:00",
        availableUntil: null,
        capacity: null,
      },
    ],
  },
  {
    id: "tablecloth-workshop",
    title: "Transform Tablecloth into Wrap Around Skirt",
    dates: "Monthly",
    timeText: "3 hours",
    startsAt: null,
    endsAt: null,
    recurring: "monthly",
    focus: "Upcycling, sewing basics, creative confidence",
    priceText: "R250 per month",
    description:
      "Turn a forgotten tablecloth into a wrap-around skirt you will love to wear. A hands-on, three-hour monthly " +
      "workshop for every skill level.",
    descriptionPoints: [
      "Choosing and preparing a tablecloth",
      "Measuring and cutting for your body",
      "Sewing a wrap-around skirt from start to finish",
    ],
    includes: ["All sewing tools", "Guidance from our upcyclers", "Refreshments"],
    location: "Honey Bee Studio, Johannesburg",
    participants: "Maximum 8 participants",
    earlyBird: null,
    images: [
      "/images/workshop/tablecloth-skirt-1.svg",
      "/images/workshop/tablecloth-skirt-2.svg",
      "/images/workshop/tablecloth-skirt-3.svg",
      "/images/workshop/tablecloth-skirt-4.svg",
      "/images/workshop/tablecloth-skirt-5.svg",
    ],
    ticketsOnSale: true,
    sortOrder: 2,
    ticketOptions: [
      {
        type: "Monthly Workshop",
        priceCents: 25000,
        description: "One seat at this month's 3-hour workshop",
        availableFrom: null,
        availableUntil: null,
        capacity: 8,
      },
    ],
  },
  {
    id: "radiance-reset",
    title: "Radiance Reset & Sustainable Style Workshop",
    dates: "23 and 30 August 2025",
    timeText: "10:00 - 14:00",
    startsAt: "2025-08-23T10:00:00+02:00",
    endsAt: "2025-08-30T14:00:00+02:00",
    recurring: null,
    focus: "Skincare, sustainable styling, confidence building",
    priceText: "R250",
    description:
      "Two Saturdays to reset your glow: natural skincare rituals, sustainable styling and exercises that build lasting confidence.",
    descriptionPoints: [
      "Natural skincare routines that work",
      "Sustainable styling with what you own",
      "Confidence building in a supportive circle",
    ],
    includes: ["Skincare samples", "Styling session", "Refreshments"],
    location: "Honey Bee Studio, Johannesburg",
    participants: "Limited to 20 participants",
    earlyBird: null,
    images: ["/images/events/radiance-reset-1.svg"],
    ticketsOnSale: true,
    sortOrder: 3,
    ticketOptions: [
      {
        type: "Workshop Ticket",
        priceCents: 25000,
        description: "Entry to both workshop days",
        availableFrom: null,
        availableUntil: null,
        capacity: null,
      },
    ],
  },
  {
    id: "heritage-radiance",
    title: "Heritage Radiance Wellness Day",
    dates: "Date to be announced",
    timeText: null,
    startsAt: null,
    endsAt: null,
    recurring: null,
    focus: "Afrocentric style, natural skincare and wellness for women",
    priceText: "R200 - R300",
    description:
      "A day celebrating our heritage: Afrocentric style, natural skincare and wellness rituals for women, together.",
    descriptionPoints: [
      "Afrocentric styling and headwrap techniques",
      "Natural skincare from local ingredients",
      "Wellness practices for body and mind",
    ],
    includes: ["Wellness activities", "Style sessions", "Healthy lunch"],
    location: "Venue to be announced",
    participants: "Open to all women",
    earlyBird: null,
    images: ["/images/events/heritage-radiance-1.svg"],
    ticketsOnSale: false,
    sortOrder: 4,
    ticketOptions: [],
  },
];
