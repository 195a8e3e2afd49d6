/**
 * The one pricing rule (app/pricing/price-lines.ts) applied to what the checkout sells (issue 40): the
 * one-item checkout and the bag price their lines here, the page to show the price and the action to
 * store it, with the same code. A signed-in member's perks count while she is active or due.
 */
import { inArray } from "drizzle-orm";
import type { Database, Tx } from "~/db/client.server";
import { ticketOptions } from "~/db/schema";
import { perksForMember, takeMemberPerks } from "~/pricing/member-perks.server";
import { priceLines, type DiscountCode, type LineToPrice, type PricedOrder } from "~/pricing/price-lines";
import type { CheckoutLineItem } from "~/payments/provider";
import { lineChargedCents, type LineMoney } from "./line-money";
import type { Sellable } from "./sellable.server";

/** The provider refuses less than R 2.00: a total between nothing and this is never sent to it. */
export const MIN_CHARGE_CENTS = 200;
export const BELOW_MIN_CHARGE_REASON =
  "Card payments start at R 2.00, and this order comes to less after your member perks. " +
  "Please add something to it, or contact us and we will sort it out.";

/** A priced total the provider cannot take (above R 0.00 but under R 2.00). */
export class BelowMinimumChargeError extends Error {
  constructor() {
    super(BELOW_MIN_CHARGE_REASON);
    this.name = "BelowMinimumChargeError";
  }
}

export const chargeIsPayable = (totalCents: number) => totalCents === 0 || totalCents >= MIN_CHARGE_CENTS;

export interface LineToSell {
  item: Sellable;
  quantity: number;
}

/** The provider name of an order whose total is R 0.00: it is confirmed at once, without a payment. */
export const FREE_PROVIDER = "free";

async function eventOfOptions(db: Database | Tx, lines: LineToSell[]): Promise<Map<number, string>> {
  const ids = lines.map((l) => l.item.line.ticketOptionId).filter((id): id is number => id !== undefined);
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: ticketOptions.id, eventId: ticketOptions.eventId })
    .from(ticketOptions)
    .where(inArray(ticketOptions.id, ids));
  return new Map(rows.map((r) => [r.id, r.eventId]));
}

function lineToPrice(line: LineToSell, index: number, events: Map<number, string>): LineToPrice {
  const { catalogItemId, ticketOptionId, membershipSlug } = line.item.line;
  const eventId = ticketOptionId !== undefined ? events.get(ticketOptionId) : undefined;
  return {
    id: String(index),
    kind: line.item.orderType,
    itemKey: catalogItemId
      ? `catalog:${catalogItemId}`
      : ticketOptionId
        ? `ticket-option:${ticketOptionId}`
        : `membership:${membershipSlug ?? ""}`,
    eventKey: eventId ? `event:${eventId}` : undefined,
    firstMembershipMonth: line.item.orderType === "membership",
    quantity: line.quantity,
    unitCents: line.item.amountCents,
  };
}

async function perksFor(db: Database | Tx, memberId: number | undefined, now: Date, lock: boolean) {
  if (memberId === undefined) return null;
  return lock ? takeMemberPerks(db as Tx, memberId, now) : perksForMember(db, memberId, now);
}

/**
 * Prices the lines for the member (or for anyone, without one). With `lock`, the member's row is locked
 * first (decision 128): call it inside the transaction that stores the order, so the month's last free
 * ticket goes to one checkout. Without, it reads what the page shows.
 */
export async function priceForCheckout(
  db: Database | Tx,
  lines: LineToSell[],
  memberId: number | undefined,
  now: Date,
  options: { lock?: boolean; code?: DiscountCode | null } = {},
): Promise<PricedOrder> {
  const perks = await perksFor(db, memberId, now, options.lock ?? false);
  const code = options.code ?? null;
  const events = perks || code ? await eventOfOptions(db, lines) : new Map<number, string>();
  return priceLines(
    lines.map((l, i) => lineToPrice(l, i, events)),
    { perks, code },
  );
}

/** A line's perk as a checkout page shows it: why, and what the line costs after it. */
export interface LinePerk {
  reason: string;
  chargedCents: number;
}

/** What the one-item checkout page shows: the price of one, why, and the total for each number of seats. */
export interface PagePrice {
  listCents: number;
  totalCents: number;
  reason: string | null;
  /** The total the server will charge for 1, 2, … seats (one entry for anything but seats). */
  totalsBySeats: number[];
  /** What became of the discount code for one, when one was given. */
  code: PricedOrder["code"];
}

export async function priceForPage(
  db: Database,
  item: Sellable,
  memberId: number | undefined,
  now: Date,
  maxSeats: number,
  code: DiscountCode | null = null,
): Promise<PagePrice> {
  const perks = await perksFor(db, memberId, now, false);
  const events = perks || code ? await eventOfOptions(db, [{ item, quantity: 1 }]) : new Map<number, string>();
  const price = (quantity: number) => priceLines([lineToPrice({ item, quantity }, 0, events)], { perks, code });
  const one = price(1);
  return {
    listCents: one.listCents,
    totalCents: one.totalCents,
    reason: one.lines[0]!.reason,
    code: one.code,
    totalsBySeats: Array.from({ length: maxSeats }, (_, i) => (i === 0 ? one : price(i + 1)).totalCents),
  };
}

/** What an order line stores of its price: its discount, why, and the member's free tickets it took. */
export function lineDiscountColumns(priced: PricedOrder, index: number, memberId: number | undefined) {
  const line = priced.lines[index]!;
  return {
    discountCents: line.discountCents,
    discountReason: line.reason,
    perkMemberId: line.source === "perk" && memberId !== undefined ? memberId : null,
    perkFreeTickets: line.freeTickets,
  };
}

/**
 * The order's lines as the provider lists them, each at what it was charged, so they add up to the
 * amount asked for. A discounted line whose charge does not split evenly over its units is listed as
 * one item of its whole charge.
 */
export function providerLineItems(lines: (LineMoney & { displayName: string })[]): CheckoutLineItem[] {
  return lines.map((line) => {
    const charged = lineChargedCents(line);
    return charged % line.quantity === 0
      ? { displayName: line.displayName, quantity: line.quantity, unitPriceCents: charged / line.quantity }
      : { displayName: `${line.displayName} × ${line.quantity}`, quantity: 1, unitPriceCents: charged };
  });
}
