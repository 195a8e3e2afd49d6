import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orderAccess, orderEvents, orderLines, orders, stockHolds } from "~/db/schema";
import { rowFromDriver } from "~/db/driver-row.server";
import { insertRowSelect, insertRowsSelect } from "~/db/insert-row-select.server";
import { countedHolds, countedHoldsRefusal } from "~/stock/counted-hold.server";
import {
  LineOutOfStockError,
  MAX_HELD_UNITS_PER_CLIENT,
  MAX_HELD_UNITS_PER_ITEM,
  OutOfStockError,
  placeHolds,
} from "~/stock/holds.server";
import type { CheckoutCustomer } from "./checkout-schema";
import type { BuyerAccessRow } from "./order-access.server";
import { orderEventInsert } from "./order-history.server";
import { newReference, uncountedHoldKey, type OrderRow } from "./orders.server";
import type { OrderType, Sellable } from "./sellable.server";
import {
  BelowMinimumChargeError,
  chargeIsPayable,
  FREE_PROVIDER,
  lineDiscountColumns,
  priceForCheckout,
} from "./order-pricing.server";
import { priceWithCode } from "~/pricing/discount-code-order.server";

/** One line of a bag's order: what the catalog sells it as now, and how many. */
export interface OrderLineInput {
  item: Sellable;
  quantity: number;
  /** A ticket line's holder per seat (attendeesForLines). */
  attendeeNames?: string[];
}

/** A line of a bag that could not be held: the error names it, and says how many are left. */
export class LineNotHeldError extends OutOfStockError {
  constructor(
    readonly item: Sellable,
    reason: string,
  ) {
    super(reason);
    this.name = "LineNotHeldError";
  }
}

/**
 * The kind of a bag's order, by what the owner has to do for it: a product to post outweighs a service
 * to give, which outweighs tickets (issued by themselves).
 */
const LEAD: OrderType[] = ["product", "service", "workshop", "ticket", "membership"];
export const bagOrderType = (lines: OrderLineInput[]): OrderType =>
  LEAD.find((type) => lines.some((l) => l.item.orderType === type)) ?? lines[0]!.item.orderType;

/** The order's item name: every line with its quantity, so the order list, the pages and the emails name them all. */
export const bagItemName = (lines: OrderLineInput[]) =>
  lines.map((l) => (l.quantity > 1 ? `${l.item.displayName} × ${l.quantity}` : l.item.displayName)).join(", ");

/** Why a bag asks for more unpaid units than one buyer may hold, or null. */
export function bagBudgetProblem(lines: OrderLineInput[]): string | null {
  const units = lines.reduce((n, l) => n + l.quantity, 0);
  const over = lines.find((l) => l.quantity > MAX_HELD_UNITS_PER_ITEM);
  if (over)
    return `${over.item.displayName}: one checkout can buy at most ${MAX_HELD_UNITS_PER_ITEM}. Please lower the quantity in your bag.`;
  if (units > MAX_HELD_UNITS_PER_CLIENT)
    return `One checkout can buy at most ${MAX_HELD_UNITS_PER_CLIENT} items. Please lower the quantities in your bag.`;
  return null;
}

/**
 * Stores a bag's pending order: the order, a line per bag line and every unit and seat held, all or
 * nothing: in one statement, or with perks or a code in one transaction. Throws LineNotHeldError naming
 * the first line that could not be held (nothing stays held), or HoldLimitError when the client's unpaid
 * budget, counted across the bag, is spent.
 */
export async function createPendingBagOrder(
  db: Database,
  input: {
    lines: OrderLineInput[];
    customer: CheckoutCustomer;
    provider: string;
    sessionId: string | null;
    now: Date;
    holdMinutes: number;
    clientKey: string | null;
    buyer?: (orderId: string) => BuyerAccessRow;
    /** The signed-in member whose perks price the lines (issue 40), decided in this transaction (decision 128). */
    perksOf?: number;
    /** The discount code the buyer typed (issue 40): its use is taken in this transaction (decision 135). */
    discountCode?: string;
  },
): Promise<OrderRow> {
  const { lines, customer } = input;
  const orderId = randomUUID();
  const reference = newReference();
  const itemName = bagItemName(lines);
  const order = {
    id: orderId,
    reference,
    orderType: bagOrderType(lines),
    itemName,
    amountCents: lines.reduce((sum, l) => sum + l.item.amountCents * l.quantity, 0),
    currency: "ZAR",
    status: "pending",
    customerFirstName: customer.firstName,
    customerLastName: customer.lastName,
    customerEmail: customer.email,
    customerPhone: customer.phone,
    customerAddress: customer.address,
    sessionId: input.sessionId,
    provider: input.provider,
    idempotencyKey: randomUUID(),
    fromBag: true,
    createdAt: input.now,
    updatedAt: input.now,
  } satisfies typeof orders.$inferInsert;
  // Stock keys are locked in one order by every bag, so two bags sharing items wait for each other
  // rather than each holding one key the other needs.
  const holds = lines
    .map((l) => ({ line: l, key: l.item.stock?.key ?? uncountedHoldKey(l.item) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const access = input.buyer?.(orderId);
  const created = `Checkout started: ${itemName}, ${reference}`;
  const lineRows = lines.map((l) => ({
    orderId,
    ...l.item.line,
    displayName: l.item.displayName,
    quantity: l.quantity,
    unitPriceCents: l.item.amountCents,
    ...(l.attendeeNames ? { attendeeNames: l.attendeeNames } : {}),
  }));
  const holdsAsked = holds.map(({ line, key }) => ({
    key,
    quantity: line.quantity,
    soldOutReason: line.item.stock?.soldOutReason ?? `${line.item.displayName} is sold out.`,
    itemName: line.item.displayName,
  }));
  if (input.perksOf === undefined && !input.discountCode) {
    return storeInOneStatement(db, { order, lineRows, created, access, holdsAsked, input, holds });
  }
  return db.transaction(async (tx) => {
    // The member's row is locked before any stock key, in every checkout, so none waits in a circle.
    // A code's row is locked before it (decision 135), the same order as the one-item checkout.
    const { price, codeId } =
      input.perksOf !== undefined || input.discountCode
        ? await priceWithCode(tx, input.discountCode, customer.email, input, (code) =>
            priceForCheckout(tx, lines, input.perksOf, input.now, { lock: true, code }),
          )
        : { price: null, codeId: null };
    if (price && !chargeIsPayable(price.totalCents)) throw new BelowMinimumChargeError();
    const priced = price
      ? {
          ...order,
          amountCents: price.totalCents,
          provider: price.totalCents === 0 ? FREE_PROVIDER : order.provider,
          discountCodeId: codeId,
        }
      : order;
    // The four rows need nothing from one another's answers: sent together, one wait (decision 141).
    const [[row]] = await Promise.all([
      tx.insert(orders).values(priced).returning(),
      tx
        .insert(orderLines)
        .values(lineRows.map((row, i) => ({ ...row, ...(price && lineDiscountColumns(price, i, input.perksOf)) }))),
      orderEventInsert(tx, orderId, "created", created, input.now),
      access ? tx.insert(orderAccess).values(access) : undefined,
    ]);
    // Every unit and seat in one pass: the same locks and refusals as a hold per line, in a few statements.
    try {
      await placeHolds(tx, {
        orderId,
        now: input.now,
        minutes: input.holdMinutes,
        clientKey: input.clientKey,
        holds: holdsAsked,
      });
    } catch (error) {
      if (error instanceof LineOutOfStockError)
        throw new LineNotHeldError(holds[error.index]!.line.item, error.message);
      throw error;
    }
    return row!;
  });
}

/**
 * The bag's order without perks or a code: its rows and every hold in one statement, which takes the
 * client's and the keys' locks itself and stores nothing unless every line fits (decision 142). No lock
 * is held while an answer travels to the app, and PGlite's one connection is not held between statements.
 */
async function storeInOneStatement(
  db: Database,
  bag: {
    order: typeof orders.$inferInsert & { id: string };
    lineRows: (typeof orderLines.$inferInsert)[];
    created: string;
    access: BuyerAccessRow | undefined;
    holdsAsked: Parameters<typeof countedHolds>[0]["holds"];
    holds: { line: OrderLineInput }[];
    input: { now: Date; holdMinutes: number; clientKey: string | null };
  },
): Promise<OrderRow> {
  const { order, input, holdsAsked } = bag;
  const budget = countedHolds({ holds: holdsAsked, clientKey: input.clientKey, now: input.now });
  const event = { orderId: order.id, kind: "created", summary: bag.created, at: input.now };
  const holdRows = holdsAsked.map((hold) => budget.hold(order.id, input.holdMinutes, hold));
  const statement = sql`
    with budget as (${budget.held}), allowed as (${budget.allowed}),
    created as (${insertRowSelect(orders, order, sql`allowed`)} returning *),
    lines as (${insertRowsSelect(orderLines, bag.lineRows, sql`created`)}),
    event as (${insertRowSelect(orderEvents, event, sql`created`)}),
    holds as (${insertRowsSelect(stockHolds, holdRows, sql`created`)})
    ${bag.access ? sql`, access as (${insertRowSelect(orderAccess, bag.access, sql`created`)})` : sql``}
    select (select json_agg(budget) from budget) as held_counts, created.*
    from (select 1) as one left join created on true`;
  const result = await db.execute(statement);
  const [row] = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  if (!row || row.id == null) {
    const counts = (typeof row?.held_counts === "string" ? JSON.parse(row.held_counts) : row?.held_counts) ?? [];
    const refused = countedHoldsRefusal(counts, holdsAsked, input.clientKey, input.holdMinutes);
    if (refused instanceof LineOutOfStockError)
      throw new LineNotHeldError(bag.holds[refused.index]!.line.item, refused.message);
    throw refused;
  }
  return rowFromDriver(orders, row);
}
