import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { PAGE_VIEW_SCRIPT } from "./page-view-script.server";
import { ANALYTICS_SESSION_KEY, INLINE_PAGE_VIEW_FLAG } from "./track";

/** Runs the script as a browser would, in a window of its own with the given parts of the browser. */
function runInPage({
  pathname = "/styled-collections",
  referrer = "",
  stored = null as string | null,
  beacon = true,
  storage = true,
} = {}) {
  const beacons: { url: string; body: Blob }[] = [];
  const fetches: { url: string; init: RequestInit }[] = [];
  const store = new Map<string, string>(stored ? [[ANALYTICS_SESSION_KEY, stored]] : []);
  const window: Record<string, unknown> = {
    location: { pathname },
    document: { referrer },
    crypto: { randomUUID: () => "3b241101-e2bb-4255-8caf-4136c566a962" },
    sessionStorage: {
      getItem: (key: string) => {
        if (!storage) throw new Error("SecurityError");
        return store.get(key) ?? null;
      },
      setItem: (key: string, value: string) => store.set(key, value),
    },
    navigator: {
      sendBeacon: (url: string, body: Blob) => {
        beacons.push({ url, body });
        return beacon;
      },
    },
    fetch: (url: string, init: RequestInit) => {
      fetches.push({ url, init });
      return Promise.resolve(new Response(null, { status: 204 }));
    },
    Blob,
    JSON,
  };
  window.window = window;
  vm.runInNewContext(PAGE_VIEW_SCRIPT, window);
  return { beacons, fetches, store, window };
}

const bodyOf = async (blob: Blob) => JSON.parse(await blob.text()) as Record<string, unknown>;

describe("the document's page-view script", () => {
  it("sends the page view by beacon with the body track.ts sends, and a new session id it keeps in sessionStorage", async () => {
    const { beacons, fetches, store, window } = runInPage({ referrer: "https://www.google.com/" });
    expect(fetches).toHaveLength(0);
    expect(beacons.map((b) => b.url)).toEqual(["/api/analytics"]);
    expect(beacons[0].body.type).toBe("application/json");
    expect(await bodyOf(beacons[0].body)).toEqual({
      eventType: "page_view",
      pagePath: "/styled-collections",
      itemName: null,
      referrer: "https://www.google.com/",
      metadata: null,
      sessionId: "3b241101-e2bb-4255-8caf-4136c566a962",
    });
    expect(store.get(ANALYTICS_SESSION_KEY)).toBe("3b241101-e2bb-4255-8caf-4136c566a962");
    // The app reads this and sends no second view for this page.
    expect(window[INLINE_PAGE_VIEW_FLAG]).toBe("/styled-collections");
  });

  it("joins the session the tab already has", async () => {
    const { beacons } = runInPage({ stored: "earlier-session-id" });
    expect((await bodyOf(beacons[0].body)).sessionId).toBe("earlier-session-id");
  });

  it("falls back to fetch with keepalive when the beacon is refused, and cuts a long path at 512 characters", () => {
    const { fetches } = runInPage({ beacon: false, pathname: `/${"a".repeat(600)}` });
    expect(fetches).toHaveLength(1);
    expect(fetches[0].url).toBe("/api/analytics");
    expect(fetches[0].init).toMatchObject({ method: "POST", keepalive: true });
    const body = JSON.parse(fetches[0].init.body as string) as { pagePath: string; referrer: unknown };
    expect(body.pagePath).toHaveLength(512);
    expect(body.referrer).toBeNull();
  });

  it("still counts the visit without session storage, under the id track.ts uses then", async () => {
    const { beacons } = runInPage({ storage: false });
    expect((await bodyOf(beacons[0].body)).sessionId).toBe("no-storage");
  });

  it("cannot close its own script element", () => {
    expect(PAGE_VIEW_SCRIPT).not.toMatch(/<\/script/i);
    expect(PAGE_VIEW_SCRIPT).not.toContain("<!--");
  });
});
