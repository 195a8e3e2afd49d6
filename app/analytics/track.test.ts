import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ANALYTICS_ENDPOINT, firstPageViewAlreadySent, INLINE_PAGE_VIEW_FLAG, trackEvent } from "./track";

const location = { pathname: "/checkout" };
const sendBeacon = vi.fn<(url: string, data: Blob) => boolean>();
const fetchMock = vi.fn(() => Promise.resolve(new Response(null, { status: 202 })));
const storage = new Map<string, string>();

beforeEach(() => {
  vi.useFakeTimers();
  location.pathname = "/checkout";
  storage.clear();
  sendBeacon.mockReset().mockReturnValue(true);
  fetchMock.mockClear();
  vi.stubGlobal("window", { location });
  vi.stubGlobal("document", { referrer: "https://www.instagram.com/" });
  vi.stubGlobal("navigator", { sendBeacon });
  vi.stubGlobal("fetch", fetchMock);
  vi.stubGlobal("sessionStorage", {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => storage.set(key, value),
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("trackEvent", () => {
  it("sends in a task of its own, with what was true when it was called", async () => {
    trackEvent("checkout_page_viewed", { itemName: "Candy Earrings", metadata: { amount: 500 } });
    location.pathname = "/order-confirmation";
    expect(sendBeacon).not.toHaveBeenCalled();

    vi.runAllTimers();
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    const [url, blob] = sendBeacon.mock.calls[0]!;
    expect(url).toBe(ANALYTICS_ENDPOINT);
    expect(blob.type).toBe("application/json");
    expect(JSON.parse(await blob.text())).toEqual({
      eventType: "checkout_page_viewed",
      pagePath: "/checkout",
      itemName: "Candy Earrings",
      referrer: "https://www.instagram.com/",
      metadata: { amount: 500 },
      sessionId: storage.get("analytics_session_id"),
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("keeps one session id across events and posts with fetch when the beacon is refused", () => {
    sendBeacon.mockReturnValue(false);
    trackEvent("page_view");
    trackEvent("page_view", { pagePath: "/blog" });
    vi.runAllTimers();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const bodies = fetchMock.mock.calls.map((call) =>
      JSON.parse((call as unknown as [string, RequestInit])[1].body as string),
    );
    expect(bodies.map((b) => b.pagePath)).toEqual(["/checkout", "/blog"]);
    expect(new Set(bodies.map((b) => b.sessionId)).size).toBe(1);
    expect(bodies[0].sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("firstPageViewAlreadySent", () => {
  const flag = () => (window as unknown as Record<string, string | undefined>)[INLINE_PAGE_VIEW_FLAG];
  const setFlag = (value: string | undefined) =>
    ((window as unknown as Record<string, string | undefined>)[INLINE_PAGE_VIEW_FLAG] = value);

  it("is true once for the page the document's script counted, then false for every later page", () => {
    setFlag("/about");
    expect(firstPageViewAlreadySent("/about")).toBe(true);
    expect(flag()).toBeUndefined();
    expect(firstPageViewAlreadySent("/about")).toBe(false);
    expect(firstPageViewAlreadySent("/blog")).toBe(false);
  });

  it("is false for a page followed to before the app hydrated, whose view the script never sent", () => {
    setFlag("/");
    expect(firstPageViewAlreadySent("/about")).toBe(false);
    // Asked once: a later return to the first page is a new view.
    expect(firstPageViewAlreadySent("/")).toBe(false);
  });

  it("is false when no script ran (a page rendered without it), so the app counts the page itself", () => {
    expect(firstPageViewAlreadySent("/styled-collections")).toBe(false);
  });

  it("compares the path as the script sent it, cut at 512 characters", () => {
    const long = `/${"a".repeat(600)}`;
    setFlag(long.slice(0, 512));
    expect(firstPageViewAlreadySent(long)).toBe(true);
  });
});
