/** What the shop can sell, as a checkout or a bag line asks for it, priced by the database. */

export type OrderType = "product" | "service" | "membership" | "workshop" | "ticket";

/** Something the shop can sell right now, priced by the database. */
export interface Sellable {
  orderType: OrderType;
  displayName: string;
  amountCents: number;
  description: string | null;
  /** Limited stock or seats: the hold key and the units that exist for it (before holds). */
  stock: { key: string; limit: number; soldOutReason: string } | null;
  /** Units a buyer can still have now (after unexpired holds), or null when uncounted. */
  available?: number | null;
  line: { catalogItemId?: number; ticketOptionId?: number; membershipSlug?: string; variantId?: number };
}

/**
 * Which row of a product with sizes or colours the buyer chose (issue 44): by the values she picked on the
 * product page (`option1`, `option2`), or by the row's id (a bag line). Empty for a product without options.
 */
export type RowChoice = { variantId?: number; option1?: string; option2?: string };

export type SellableLookup = { ok: true; item: Sellable } | { ok: false; reason: string };
