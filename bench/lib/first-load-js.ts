// The JavaScript a page makes the browser download on a first visit, measured in the browser: every
// script response's bytes on the wire (gzip-compressed body and headers, as Lighthouse's transfer
// size counts them), from the start of the visit until the page has hydrated and the network is
// quiet. Not from the build manifest: what the browser fetched is what a phone pays for.
import { chromium, type Browser } from "@playwright/test";

export interface FirstLoadJs {
  url: string;
  status: number;
  scripts: number;
  kb: number;
}

// Headless Chromium names itself "HeadlessChrome"; the site treats that as a bot for analytics only.
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROME,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

export async function measureFirstLoadJs(browser: Browser, url: string): Promise<FirstLoadJs> {
  // A fresh context per page: an empty cache, as on a first visit.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    const scriptRequests = new Set<string>();
    const bytes = new Map<string, number>();
    cdp.on("Network.responseReceived", (e) => {
      if (e.type === "Script") scriptRequests.add(e.requestId);
    });
    cdp.on("Network.loadingFinished", (e) => bytes.set(e.requestId, e.encodedDataLength));
    const response = await page.goto(url, { waitUntil: "load" });
    // The app's scripts start after the first screen (decision 063): wait for hydration, then quiet.
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    let total = 0;
    for (const id of scriptRequests) total += bytes.get(id) ?? 0;
    return {
      url,
      status: response?.status() ?? 0,
      scripts: scriptRequests.size,
      kb: Number((total / 1024).toFixed(1)),
    };
  } finally {
    await context.close();
  }
}
