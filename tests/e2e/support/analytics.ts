import { type BrowserContext, type Page } from "@playwright/test";

/**
 * Beacons are invisible to Playwright. After this, the page's sendBeacon notes each URL it was asked to
 * send to (in `window.__beaconCalls`) and answers false, so the app's trackEvent falls back to fetch,
 * which Playwright sees (with its body and answer) and which reaches the server as usual.
 */
export async function sendAnalyticsByFetch(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript(() => {
    const calls: string[] = [];
    (window as unknown as { __beaconCalls: string[] }).__beaconCalls = calls;
    Object.defineProperty(navigator, "sendBeacon", {
      value: (url: string) => {
        calls.push(String(url));
        return false;
      },
    });
  });
}
