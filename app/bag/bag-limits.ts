// No Zod here: the header and every public page's "Add to bag" use these (first-load budget, issue 39).

/** The most of one thing a bag line holds, and the most lines one bag holds (issue 39). */
export const MAX_LINE_QUANTITY = 10;
export const MAX_BAG_LINES = 20;

/** What /bag answers a form sent by a fetcher (the page stays where it is). */
export interface BagActionResult {
  ok: boolean;
  message: string;
  count: number;
}

/** The bag's count cookie, readable by the page's script: the header shows it without a per-visitor render. */
export const BAG_COUNT_COOKIE = "hb_bag_n";

/** The number in the count cookie (0 when missing or unreadable). */
export function bagCountFromCookies(cookieHeader: string): number {
  for (const part of cookieHeader.split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === BAG_COUNT_COOKIE && value && /^[0-9]{1,4}$/.test(value)) return Number(value);
  }
  return 0;
}

/** The quantities a select offers for something with `available` left (null: not counted). */
export function quantityChoices(available: number | null): number[] {
  const most = Math.min(MAX_LINE_QUANTITY, available ?? MAX_LINE_QUANTITY);
  return Array.from({ length: Math.max(0, most) }, (_, i) => i + 1);
}

/** Said where a bag checkout finds nothing to buy. */
export const EMPTY_BAG_REASON = "Your bag is empty. Add something from the shop or an event first.";
