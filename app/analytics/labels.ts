/** The spec's page labels for Popular Pages; other paths are shown as they are. */
const PAGE_LABELS: Record<string, string> = {
  "/": "Home Page",
  "/styled-collections": "Products",
  "/events": "Events",
  "/about": "About",
  "/contact": "Contact",
  "/consultation-services": "Consultation Services",
  "/blog": "Blog",
};

export const pageLabel = (path: string) => PAGE_LABELS[path] ?? path;

/** The spec's activity labels; other event types are shown by their name. */
const ACTIVITY_LABELS: Record<string, string> = {
  page_view: "Page visited",
  product_view: "Product viewed",
  event_view: "Event viewed",
  consultation_booking: "Consultation booked",
};

export const activityLabel = (eventType: string) => ACTIVITY_LABELS[eventType] ?? eventType;

/** The spec's relative times: "Just now", "N minutes ago", "N hours ago", "N days ago". */
export function relativeTime(at: Date, now: Date): string {
  const seconds = Math.floor((now.getTime() - at.getTime()) / 1000);
  if (seconds < 60) return "Just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} ${minutes === 1 ? "minute" : "minutes"} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} ${hours === 1 ? "hour" : "hours"} ago`;
  const days = Math.floor(hours / 24);
  return `${days} ${days === 1 ? "day" : "days"} ago`;
}
