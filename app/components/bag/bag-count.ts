import { bagCountFromCookies } from "~/bag/bag-limits";

const BAG_EVENT = "honeybee:bag";

/** Tells the header's link the bag's new count (after a fetcher changed the bag). */
export function announceBagCount(count: number): void {
  window.dispatchEvent(new CustomEvent(BAG_EVENT, { detail: count }));
}

/**
 * The count to show: from the count cookie, read in the browser after load, so the page itself stays
 * the same for everyone and the page cache keeps serving it (issue 39).
 */
export function readBagCount(): number {
  return bagCountFromCookies(document.cookie);
}

export function onBagCount(listener: (count: number) => void): () => void {
  const handler = (event: Event) => listener(Number((event as CustomEvent<number>).detail) || 0);
  window.addEventListener(BAG_EVENT, handler);
  return () => window.removeEventListener(BAG_EVENT, handler);
}
