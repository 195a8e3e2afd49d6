/**
 * The stock keys holds are counted and locked by: a catalog item's units, a ticket option's seats, or
 * the seats of one session of a recurring event. Every module that locks or counts stock builds its
 * key here, so two of them can never lock the same units under different names.
 */
export const catalogStockKey = (itemId: number) => `catalog:${itemId}`;

export const ticketStockKey = (optionId: number) => `ticket:${optionId}`;

/** "ticket:{optionId}:{sessionStartIso}": seats are counted per session. */
export const sessionStockKey = (optionId: number, startsAt: Date) => `ticket:${optionId}:${startsAt.toISOString()}`;

/** The session start named by a stock key, or null for a key without one. */
export function sessionFromStockKey(key: string): Date | null {
  const rest = key.split(":").slice(2).join(":");
  if (!rest) return null;
  const at = new Date(rest);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** "variant:{id}": one row (size, colour) of a product with options counts its own units (issue 44). */
export const variantStockKey = (variantId: number) => `variant:${variantId}`;
