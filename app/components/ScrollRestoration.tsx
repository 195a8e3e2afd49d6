import { useCallback, useContext, useEffect, useLayoutEffect } from "react";
import { UNSAFE_DataRouterContext, UNSAFE_DataRouterStateContext, useLocation, useNavigation } from "react-router";
import {
  mayHaveSavedPositions,
  readScrollPositions,
  SCROLL_POSITIONS_KEY,
  type ScrollPositions,
  saveScrollPositions,
} from "~/lib/scroll-positions";

/**
 * React Router's <ScrollRestoration>, except that a page reached by a new navigation does not touch
 * session storage while it loads. A tab's first access to session storage waits on the browser
 * process: 4–20 ms inside the parse task of every page in Lighthouse's runs on this machine, four times
 * that on the phone it simulates, and a new history entry has no saved position to read (decision 073).
 * Reloads and back/forward visits read and restore as React Router does, under the same storage key.
 */
export function ScrollRestoration({ nonce }: { nonce?: string }) {
  useScrollRestoration();
  return (
    <script
      nonce={nonce}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{
        __html: `(${restoreWhileParsing.toString()})(${JSON.stringify(SCROLL_POSITIONS_KEY)})`,
      }}
    />
  );
}

// Runs inline as the page is parsed, as React Router's own script does, so that a reloaded page is
// back at its place before it is first drawn. A new navigation has no history state yet: it only gets
// the key the router will file its position under.
function restoreWhileParsing(storageKey: string) {
  if (!window.history.state || !window.history.state.key) {
    window.history.replaceState({ key: Math.random().toString(32).slice(2) }, "");
    return;
  }
  try {
    const storedY = JSON.parse(sessionStorage.getItem(storageKey) || "{}")[window.history.state.key];
    if (typeof storedY === "number") window.scrollTo(0, storedY);
  } catch (error) {
    console.error(error);
    sessionStorage.removeItem(storageKey);
  }
}

// One object for the document's life: the router writes each entry's position into it as the visitor
// navigates (enableScrollRestoration keeps a reference), and it is saved when the page is hidden.
const savedPositions: ScrollPositions = {};

function useScrollRestoration() {
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const { restoreScrollPosition, preventScrollReset } = useContext(UNSAFE_DataRouterStateContext) ?? {};
  const location = useLocation();
  const navigation = useNavigation();

  useEffect(() => {
    window.history.scrollRestoration = "manual";
    return () => {
      window.history.scrollRestoration = "auto";
    };
  }, []);

  const savePositions = useCallback(() => {
    if (navigation.state === "idle") savedPositions[location.key] = window.scrollY;
    try {
      saveScrollPositions(sessionStorage, savedPositions);
    } catch (error) {
      console.warn(`Scroll positions could not be saved in sessionStorage (${String(error)}).`);
    }
    window.history.scrollRestoration = "auto";
  }, [navigation.state, location.key]);
  useEffect(() => {
    window.addEventListener("pagehide", savePositions);
    return () => window.removeEventListener("pagehide", savePositions);
  }, [savePositions]);

  useLayoutEffect(() => {
    const [entry] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    if (mayHaveSavedPositions(entry?.type)) Object.assign(savedPositions, readScrollPositions(sessionStorage));
    return router?.enableScrollRestoration(savedPositions, () => window.scrollY);
  }, [router]);

  // After each navigation, as React Router does it: back to a saved position, to the #hash target, or
  // to the top unless the link asked to keep the scroll.
  useLayoutEffect(() => {
    if (restoreScrollPosition === false) return;
    if (typeof restoreScrollPosition === "number") {
      window.scrollTo(0, restoreScrollPosition);
      return;
    }
    if (location.hash) {
      let target: HTMLElement | null = null;
      try {
        target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      } catch {
        // Not a decodable element id: nothing to scroll to.
      }
      if (target) {
        target.scrollIntoView();
        return;
      }
    }
    if (preventScrollReset === true) return;
    window.scrollTo(0, 0);
  }, [location, restoreScrollPosition, preventScrollReset]);
}
