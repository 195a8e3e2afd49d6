/** What /styled-collections offers and the product form promises, kept free of server code for the browser. */

export const COLLECTION_SORTS = [
  { value: "newest", label: "Newest" },
  { value: "price-desc", label: "Price high to low" },
  { value: "price-asc", label: "Price low to high" },
] as const;
export type CollectionSort = (typeof COLLECTION_SORTS)[number]["value"];

/** The spec's order: price, highest first. */
export const DEFAULT_COLLECTION_SORT: CollectionSort = "price-desc";

/** A sort the page offers, or null for anything else (which the page redirects away from). */
export const parseCollectionSort = (value: string): CollectionSort | null =>
  COLLECTION_SORTS.find((s) => s.value === value)?.value ?? null;

/** How long a piece the owner marks "New" shows the badge. */
export const NEW_FOR_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When a save with "New" ticked ends the badge: an already running 30 days keep their end (saving a
 * typo fix must not make a piece new again); otherwise 30 days from now. Unticked: no badge.
 */
export function newUntilAfterSave(markNew: boolean, current: Date | null, now: Date): Date | null {
  if (!markNew) return null;
  if (current && current > now) return current;
  return new Date(now.getTime() + NEW_FOR_DAYS * DAY_MS);
}

export const isNewAt = (newUntil: Date | null, now: Date) => newUntil !== null && newUntil > now;

/** When a piece became new to the shop: marked "New", or else added. */
export const newSince = (item: { newUntil: Date | null; createdAt: Date }) =>
  Math.max(item.createdAt.getTime(), item.newUntil ? item.newUntil.getTime() - NEW_FOR_DAYS * DAY_MS : 0);
