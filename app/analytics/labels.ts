import type { AnalyticsEventType } from "./track";

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

/**
 * The spec's activity labels, and plain words for every other type the site records: the owner
 * reads this list, and "checkout_created_success" means nothing to her. Typed by the event types,
 * so a new type cannot reach the dashboard without its words.
 */
const ACTIVITY_LABELS: Record<AnalyticsEventType, string> = {
  page_view: "Page visited",
  product_view: "Product viewed",
  event_view: "Event viewed",
  consultation_booking: "Consultation booked",
  contact_form_submit: "Message sent",
  checkout_page_viewed: "Checkout opened",
  checkout_attempted: "Checkout form sent",
  checkout_created_success: "Went to pay",
  order_confirmation_viewed: "Confirmation seen",
  purchase_success: "Paid",
  purchase_failed: "Payment failed",
  purchase_pending: "Payment pending",
  add_to_bag: "Added to bag",
  bag_viewed: "Bag opened",
  checkout_started: "Bag checkout opened",
};

export const activityLabel = (eventType: string) => ACTIVITY_LABELS[eventType as AnalyticsEventType] ?? eventType;

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
