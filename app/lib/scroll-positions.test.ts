import { describe, expect, it } from "vitest";
import {
  mayHaveSavedPositions,
  readScrollPositions,
  SCROLL_POSITIONS_KEY,
  saveScrollPositions,
} from "./scroll-positions";

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    items,
  };
}

describe("scroll positions in session storage", () => {
  it("reads what React Router stored, and nothing from a missing or damaged entry", () => {
    expect(readScrollPositions(memoryStorage({ [SCROLL_POSITIONS_KEY]: '{"abc":640}' }))).toEqual({ abc: 640 });
    expect(readScrollPositions(memoryStorage())).toEqual({});
    expect(readScrollPositions(memoryStorage({ [SCROLL_POSITIONS_KEY]: "{not json" }))).toEqual({});
    expect(readScrollPositions(memoryStorage({ [SCROLL_POSITIONS_KEY]: "[1,2]" }))).toEqual({});
  });

  it("saves this document's positions over the stored ones, keeping those earlier documents saved", () => {
    const storage = memoryStorage({ [SCROLL_POSITIONS_KEY]: '{"earlier":800,"both":1}' });
    saveScrollPositions(storage, { both: 2, mine: 300 });
    expect(JSON.parse(storage.items.get(SCROLL_POSITIONS_KEY)!)).toEqual({ earlier: 800, both: 2, mine: 300 });
    const empty = memoryStorage();
    saveScrollPositions(empty, { mine: 300 });
    expect(JSON.parse(empty.items.get(SCROLL_POSITIONS_KEY)!)).toEqual({ mine: 300 });
  });

  it("looks for saved positions only after a reload or a back/forward visit", () => {
    expect(mayHaveSavedPositions("navigate")).toBe(false);
    expect(mayHaveSavedPositions("reload")).toBe(true);
    expect(mayHaveSavedPositions("back_forward")).toBe(true);
    expect(mayHaveSavedPositions(undefined)).toBe(true);
  });
});
