/**
 * Browser side of analytics: a random session id kept in sessionStorage under
 * "analytics_session_id", and events posted to the app's own endpoint (sendBeacon when it can).
 * A failure is only logged: analytics never gets in a visitor's way.
 */
export const ANALYTICS_SESSION_KEY = "analytics_session_id";
export const ANALYTICS_ENDPOINT = "/api/analytics";
/**
 * Set on `window` by the document's own page-view script (page-view-script.server.ts) to the path
 * whose view it sent, so that the hydrated app does not send that view a second time.
 */
export const INLINE_PAGE_VIEW_FLAG = "__honeyPageViewSent";

/**
 * Asked once, by the app's first page-view effect: true when the document's own script already sent
 * this path's view. The path makes the skip exact: whatever order hydration and a first click come in,
 * only the page the script counted goes unsent (decision 089). False for every later page (the flag is
 * cleared), and when no script ran (a page rendered without it), so that the app then sends the view itself.
 */
export function firstPageViewAlreadySent(pagePath: string): boolean {
  const flags = window as unknown as Record<string, string | undefined>;
  const sent = flags[INLINE_PAGE_VIEW_FLAG];
  if (!sent) return false;
  flags[INLINE_PAGE_VIEW_FLAG] = undefined;
  return sent === pagePath.slice(0, 512);
}

export type AnalyticsEventType =
  | "page_view"
  | "product_view"
  | "event_view"
  | "consultation_booking"
  | "contact_form_submit"
  | "checkout_page_viewed"
  | "checkout_attempted"
  | "checkout_created_success"
  | "order_confirmation_viewed"
  | "purchase_success"
  | "purchase_failed"
  | "purchase_pending"
  | "add_to_bag"
  | "bag_viewed"
  | "checkout_started";

export interface TrackOptions {
  pagePath?: string;
  itemName?: string;
  metadata?: Record<string, string | number | boolean | null>;
}

export function getAnalyticsSessionId(): string {
  try {
    let id = sessionStorage.getItem(ANALYTICS_SESSION_KEY);
    if (!id) {
      id = crypto.randomUUID();
      sessionStorage.setItem(ANALYTICS_SESSION_KEY, id);
    }
    return id;
  } catch {
    return "no-storage";
  }
}

/**
 * Sends one event, in a task of its own: most events are sent from a page's effects, which run
 * inside the task that finishes hydration, and the send (session storage, a beacon) would lengthen
 * the longest task a phone runs on arrival (decision 070). What the event says is read now; a
 * navigation that follows at once still lets the task run, since the page stays until the next
 * one arrives.
 */
export function trackEvent(eventType: AnalyticsEventType, options: TrackOptions = {}): void {
  if (typeof window === "undefined") return;
  const event: TrackedEvent = {
    eventType,
    // The server stores at most 512 characters of a path (event-schema.ts): a longer one is cut, not lost.
    pagePath: (options.pagePath ?? window.location.pathname).slice(0, 512),
    itemName: options.itemName ?? null,
    referrer: document.referrer.slice(0, 512) || null,
    metadata: options.metadata ?? null,
  };
  setTimeout(() => send(event), 0);
}

interface TrackedEvent {
  eventType: AnalyticsEventType;
  pagePath: string;
  itemName: string | null;
  referrer: string | null;
  metadata: TrackOptions["metadata"] | null;
}

function send(event: TrackedEvent): void {
  try {
    const body = JSON.stringify({ ...event, sessionId: getAnalyticsSessionId() });
    const blob = new Blob([body], { type: "application/json" });
    if (navigator.sendBeacon?.(ANALYTICS_ENDPOINT, blob)) return;
    fetch(ANALYTICS_ENDPOINT, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json" },
      keepalive: true,
    }).catch((error) => console.error("Analytics tracking failed:", error));
  } catch (error) {
    console.error("Analytics tracking failed:", error);
  }
}
