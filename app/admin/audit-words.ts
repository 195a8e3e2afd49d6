import { formatRand } from "~/lib/money";
import { formatDateTime } from "./format-date";

/**
 * The activity log in the owner's words: each recorded field named as its form labels it, each value as
 * the form shows it ("Price: R 275.00 → R 300.00"). The log stores column names (older entries have no
 * values at all), so the words are chosen when the page is drawn, for old entries and new alike.
 */
const COMMON: Record<string, string> = {
  name: "Name",
  title: "Title",
  slug: "Web address",
  kind: "Kind",
  priceCents: "Price",
  priceText: "Price on request",
  description: "Description",
  stockQuantity: "Stock",
  visible: "Visible",
  sortOrder: "Sort order",
  images: "Photos",
  imageAlts: "Alt texts",
  image: "Cover photo",
  imageAlt: "Cover photo alt text",
  excerpt: "Excerpt",
  author: "Author",
  category: "Category",
  content: "Content",
  published: "Published",
  publishedOn: "Published on",
  dates: "Dates",
  timeText: "Times",
  startsAt: "Starts",
  endsAt: "Ends",
  location: "Location",
  focus: "Focus",
  includes: "What's included",
  participants: "Participants",
  options: "Ticket options",
  features: "Benefits",
  alt: "Alt text",
  caption: "Caption",
  note: "Note",
  fulfilmentMethod: "Sent",
  answered: "Answered",
};

const BY_ENTITY: Record<string, Record<string, string>> = {
  discount_code: {
    code: "Code",
    kind: "Takes off",
    amount: "Amount off",
    scope: "Applies to",
    items: "Chosen items",
    validFrom: "Valid from",
    validUntil: "Valid until",
    totalUses: "Total uses",
    usesPerEmail: "Uses per customer",
    active: "On",
  },
  membership: { priceCents: "Price per month" },
  post: { audience: "Who can read it", audienceTiers: "Plans that can read it" },
  settings: {
    email: "Contact email",
    phone: "Phone",
    location: "Location",
    availability: "Availability",
    facebook: "Facebook",
    instagram: "Instagram",
    linkedin: "LinkedIn",
    ownerEmail: "Notification email",
  },
};

export function fieldLabel(entity: string, field: string): string {
  return (
    BY_ENTITY[entity]?.[field] ??
    COMMON[field] ??
    field.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/^./, (c) => c.toUpperCase())
  );
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const METHODS: Record<string, string> = { posted: "Posted", collected: "Handed over", "service done": "Done" };

/** One value as the owner reads it: rand for cents, yes/no, dates in South African time, lists joined. */
export function valueWords(field: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "(empty)";
  if (typeof value === "number" && /Cents$/.test(field)) return formatRand(value);
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "string" && ISO_INSTANT.test(value)) return formatDateTime(value);
  if (field === "fulfilmentMethod" && typeof value === "string") return METHODS[value] ?? value;
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === "string")) return value.length ? cut(value.join(", ")) : "(empty)";
    if (field === "options") return cut(value.map(optionWords).join("; "));
  }
  return cut(typeof value === "string" ? value : JSON.stringify(value));
}

function optionWords(option: unknown): string {
  if (!option || typeof option !== "object") return String(option);
  const o = option as { type?: string; priceCents?: number; capacity?: number | null };
  const price = typeof o.priceCents === "number" ? ` ${formatRand(o.priceCents)}` : "";
  const seats = typeof o.capacity === "number" ? `, ${o.capacity} seats` : "";
  return `${o.type ?? "Option"}${price}${seats}`;
}

const cut = (text: string) => (text.length > 120 ? `${text.slice(0, 117)}...` : text);

/**
 * "Changed priceCents, priceText of Candy Earrings" as "Changed Price and Price on request of Candy
 * Earrings": a summary that lists stored field names gets their labels.
 */
export function summaryWords(entity: string, summary: string): string {
  const match = /^Changed ([A-Za-z]+(?:(?:, | and )[A-Za-z]+)*)( of | in )(.*)$/s.exec(summary);
  if (!match) return summary;
  const labels = match[1]!.split(/, | and /).map((f) => fieldLabel(entity, f));
  const list = labels.length > 1 ? `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}` : labels[0];
  return `Changed ${list}${match[2]}${match[3]}`;
}
