/**
 * Everything about the brand that an owner may need to change in one place: name, addresses,
 * social and membership-platform links, and the community video.
 */
export const site = {
  name: "Honey Bee Sustainable Fashion",
  shortName: "Honey Bee",
  tagline: "Where sustainable fashion meets beauty.",
  heroText:
    "Where sustainable fashion meets beauty. We upcycle and recycle clothing & accessories, styling them on our beautiful Honeys.",
  email: "hello@honeybeefashion.co.za",
  phone: "+27 71 234 5678",
  /** The WhatsApp number (international form); empty shows no WhatsApp link until the owner sets one. */
  whatsapp: "",
  location: "Johannesburg, South Africa",
  availability: "Available worldwide · South African time (GMT+2)",
  copyrightYear: 2024,
  timeZone: "Africa/Johannesburg",
  social: {
    facebook: "https://www.facebook.com/honeybeesustainablefashion",
    instagram: "https://www.instagram.com/honeybeesustainablefashion",
    linkedin: "https://www.linkedin.com/company/honeybeesustainablefashion",
  },
  membershipPlatformUrl: "https://www.patreon.com/honeybeesustainablefashion",
  video: {
    /** YouTube id of the community video (replace with the brand's own); it loads only when a visitor presses play. */
    youtubeId: "M7lc1UVf-VE",
    title: "Our community: upcycling, styling and sisterhood",
    poster: "/images/community/video-poster.svg",
  },
} as const;

export type SiteConfig = typeof site;
