/**
 * Browser side of analytics: a random session id kept in sessionStorage under
 * "analytics_session_id", and events posted to the app's own endpoint (sendBeacon when it can).
 * A failure is only logged: analytics never gets in a visitor's way.
 */
export const ANALYTICS_SESSION_KEY = "analytics_session_id";
export const ANALYTICS_ENDPOINT = "/api/analytics";

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
  | "purchase_pending";

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

export function trackEvent(eventType: AnalyticsEventType, options: TrackOptions = {}): void {
  if (typeof window === "undefined") return;
  try {
    const body = JSON.stringify({
      eventType,
      pagePath: options.pagePath ?? window.location.pathname,
      itemName: options.itemName ?? null,
      sessionId: getAnalyticsSessionId(),
      referrer: document.referrer || null,
      metadata: options.metadata ?? null,
    });
    const blob = new Blob([body], { type: "application/json" });
    if (navigator.sendBeacon?.(ANALYTICS_ENDPOINT, blob)) return;
    fetch(ANALYTICS_ENDPOINT, { method: "POST", body, headers: { "Content-Type": "application/json" }, keepalive: true }).catch(
      (error) => console.error("Analytics tracking failed:", error),
    );
  } catch (error) {
    console.error("Analytics tracking failed:", error);
  }
}
