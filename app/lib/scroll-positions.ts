// The scroll positions React Router's scroll restoration keeps per history entry, read from session
// storage only when this document's own entry can have one there (decision 073).

/** The key React Router uses, so positions saved before this component existed still count. */
export const SCROLL_POSITIONS_KEY = "react-router-scroll-positions";

export type ScrollPositions = Record<string, number>;

type PositionStorage = Pick<Storage, "getItem" | "setItem">;

export function readScrollPositions(storage: PositionStorage): ScrollPositions {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(SCROLL_POSITIONS_KEY) ?? "{}");
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as ScrollPositions) : {};
  } catch {
    return {};
  }
}

/**
 * Stores this document's positions over what is stored. A document reached by a new navigation never
 * read the stored ones in, and the entries earlier documents in this tab saved must survive it: the
 * visitor can still go back to them.
 */
export function saveScrollPositions(storage: PositionStorage, positions: ScrollPositions): void {
  storage.setItem(SCROLL_POSITIONS_KEY, JSON.stringify({ ...readScrollPositions(storage), ...positions }));
}

/**
 * Only a reload or a back/forward visit brings back a history entry that an earlier document may have
 * saved a position for; a new navigation starts a new entry, with nothing saved for it or reachable
 * from it without another document load.
 */
export function mayHaveSavedPositions(navigationType: string | undefined): boolean {
  return navigationType !== "navigate";
}
