import { ANALYTICS_ENDPOINT, ANALYTICS_SESSION_KEY, INLINE_PAGE_VIEW_FLAG } from "./track";

/**
 * The first page's view, sent by the document itself while the browser parses its head, written
 * into the page as source (it must not use anything outside itself). The app's scripts start only
 * after the first screen has been drawn (decision 063), so a view sent after hydration missed every
 * visitor who left sooner (issue 22). The body is the one app/analytics/track.ts sends, with the same
 * session id in the same sessionStorage key, so the hydrated app's later events join this session;
 * the flag names the page whose view has gone, so the app sends none of its own for that page.
 * A beacon outlives the page; fetch with keepalive is the fallback, as in track.ts. Any failure is
 * swallowed: analytics never gets in a visitor's way. See docs/decisions/089-page-view-from-inline-script.md.
 */
function sendFirstPageView(sessionKey: string, endpoint: string, flag: string) {
  let sessionId: string;
  try {
    sessionId = sessionStorage.getItem(sessionKey) ?? "";
    if (!sessionId) {
      sessionId = crypto.randomUUID();
      sessionStorage.setItem(sessionKey, sessionId);
    }
  } catch {
    sessionId = "no-storage";
  }
  const pagePath = location.pathname.slice(0, 512);
  const body = JSON.stringify({
    eventType: "page_view",
    pagePath,
    itemName: null,
    referrer: document.referrer.slice(0, 512) || null,
    metadata: null,
    sessionId,
  });
  (window as unknown as Record<string, string>)[flag] = pagePath;
  try {
    if (navigator.sendBeacon?.(endpoint, new Blob([body], { type: "application/json" }))) return;
    fetch(endpoint, { method: "POST", body, headers: { "Content-Type": "application/json" }, keepalive: true }).catch(
      () => {},
    );
  } catch {
    // Nothing to do: the visit goes uncounted rather than the page failing.
  }
}

/** The script's source, with its constants as JSON (none of them can contain "</script"). */
export const PAGE_VIEW_SCRIPT = `(${sendFirstPageView.toString()})(${[
  ANALYTICS_SESSION_KEY,
  ANALYTICS_ENDPOINT,
  INLINE_PAGE_VIEW_FLAG,
]
  .map((value) => JSON.stringify(value))
  .join(",")})`;
