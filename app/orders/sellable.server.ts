import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { MAX_OPTION_TEXT, variantLineName } from "~/catalog/product-options";
import { catalogItems, events, membershipTiers, productVariants, ticketOptions } from "~/db/schema";
import { describeSession, describeSessionDay, nextSession } from "~/events/sessions.server";
import { ticketAvailability } from "~/events/ticket-availability";
import { heldUnits, soldSeats, soldSeatsByKey, unitsAvailable } from "~/stock/availability.server";
import { catalogStockKey, sessionStockKey, ticketStockKey, variantStockKey } from "~/stock/keys";

/** The default summary the spec shows with no query parameters (not payable: see decision 041). */
export const DEFAULT_CHECKOUT = { name: "Checkout", amountCents: 20000 } as const;

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

const MAX_QUERY = 200;

/**
 * Finds what `type` and `item` from the checkout query name, and whether it can be sold now.
 * The `price` query parameter is never read: the catalog price is the price.
 */
export async function findSellable(
  db: Database,
  type: string,
  item: string,
  now: Date,
  choice: RowChoice = {},
): Promise<SellableLookup> {
  const name = item.trim();
  // A NUL cannot even be compared by PostgreSQL: such a name matches nothing.
  if (!name || name.length > MAX_QUERY || name.includes("\u0000"))
    return { ok: false, reason: "We could not find that item." };
  switch (type) {
    case "product":
    case "service":
      return findCatalogItem(db, sql`lower(${catalogItems.name}) = lower(${name})`, now, choice);
    case "membership":
      return findMembership(db, name);
    case "workshop":
    case "ticket":
      return findTicket(db, ticketNamed(type, name), now);
    default:
      return { ok: false, reason: "We could not find that item." };
  }
}

/** What a bag line names: a catalog item (and its row, when it has sizes or colours) or a ticket option, by id. */
export type SellableRef = { kind: "catalog" | "ticket"; id: number; choice?: RowChoice };

/**
 * `findSellable` for a bag line, by id rather than by name, with the same prices and refusals as Order
 * Now; a hidden catalog item is offered by no page, so it is not sold from a bag either.
 */
export async function findSellableByRef(db: Database, ref: SellableRef, now: Date): Promise<SellableLookup> {
  if (!Number.isSafeInteger(ref.id) || ref.id < 1 || ref.id > 2_147_483_647)
    return { ok: false, reason: "We could not find that item." };
  if (ref.kind === "catalog")
    return findCatalogItem(db, sql`${catalogItems.id} = ${ref.id} and ${catalogItems.visible}`, now, ref.choice ?? {});
  return findTicket(db, (rows) => rows.find((r) => r.option.id === ref.id), now);
}

/**
 * `findSellableByRef` for every line of a bag at once, answered in the refs' order with the same prices
 * and refusals (issue 39, the bag's speed): one statement per kind of thing, whatever the bag's length:
 * the catalog items, their rows, the ticket options, each recurring event's next session, the seats
 * sold, and the units held of every counted key.
 */
export async function findSellablesByRefs(db: Database, refs: SellableRef[], now: Date): Promise<SellableLookup[]> {
  const valid = (ref: SellableRef) => Number.isSafeInteger(ref.id) && ref.id >= 1 && ref.id <= 2_147_483_647;
  const idsOf = (kind: SellableRef["kind"]) => [
    ...new Set(refs.filter((r) => r.kind === kind && valid(r)).map((r) => r.id)),
  ];
  const catalogIds = idsOf("catalog");
  const optionIds = idsOf("ticket");
  // Reads that need nothing from one another go together: each wait is a trip through a busy
  // database's queue (decision 141).
  const [items, ticketRows] = await Promise.all([
    catalogIds.length
      ? db
          .select()
          .from(catalogItems)
          .where(
            and(inArray(catalogItems.id, catalogIds), eq(catalogItems.visible, true), eq(catalogItems.archived, false)),
          )
      : [],
    optionIds.length
      ? db
          .select({ event: events, option: ticketOptions })
          .from(ticketOptions)
          .innerJoin(events, eq(events.id, ticketOptions.eventId))
          .where(and(eq(events.archived, false), inArray(ticketOptions.id, optionIds)))
      : [],
  ]);
  const itemById = new Map(items.map((i) => [i.id, i]));
  const variantIds = [
    ...new Set(
      refs.flatMap((r) =>
        r.kind === "catalog" && r.choice?.variantId && itemById.get(r.id)?.optionNames.length
          ? [r.choice.variantId]
          : [],
      ),
    ),
  ];
  const ticketById = new Map(ticketRows.map((r) => [r.option.id, r]));
  const recurringEvents = [
    ...new Set(
      ticketRows.filter((row) => row.event.recurring === "monthly" && ticketPlan(row, now).ok).map((r) => r.event.id),
    ),
  ];
  const [variants, nextSessions] = await Promise.all([
    variantIds.length ? db.select().from(productVariants).where(inArray(productVariants.id, variantIds)) : [],
    Promise.all(recurringEvents.map((eventId) => nextSession(db, eventId, now))),
  ]);
  const variantById = new Map(variants.map((v) => [v.id, v]));
  const sessions = new Map<string, Session>(recurringEvents.map((eventId, i) => [eventId, nextSessions[i]!]));

  // Each ref's answer, or what it waits for: goods or seats whose held units (and sold seats) are read below.
  type Pending =
    | { done: SellableLookup }
    | { goods: Goods }
    | { ticket: TicketRow; session: Session | null; seats: ReturnType<typeof ticketStock> };
  const pending: Pending[] = [];
  for (const ref of refs) {
    if (!valid(ref)) {
      pending.push({ done: { ok: false, reason: "We could not find that item." } });
    } else if (ref.kind === "catalog") {
      const item = itemById.get(ref.id);
      if (!item) pending.push({ done: { ok: false, reason: "We could not find that item." } });
      else if (!item.optionNames.length) pending.push({ goods: goodsOfItem(item) });
      else if (!ref.choice?.variantId) pending.push({ done: await findProductRow(db, item, now, ref.choice ?? {}) });
      else {
        const row = variantById.get(ref.choice.variantId);
        pending.push(
          !row || row.catalogItemId !== item.id || !row.enabled
            ? { done: choiceNotSold(item) }
            : { goods: goodsOfRow(item, row) },
        );
      }
    } else {
      const match = ticketById.get(ref.id);
      const plan = match ? ticketPlan(match, now) : null;
      if (!match || !plan) pending.push({ done: { ok: false, reason: "We could not find that event ticket." } });
      else if (!plan.ok) pending.push({ done: plan });
      else {
        const session = plan.recurring ? sessions.get(match.event.id)! : null;
        pending.push({ ticket: match, session, seats: ticketStock(match, session) });
      }
    }
  }
  const heldKeys = pending.flatMap((p) =>
    "goods" in p && p.goods.priceCents !== null && p.goods.stockQuantity !== null
      ? [p.goods.key]
      : "ticket" in p && p.seats
        ? [p.seats.key]
        : [],
  );
  const seatKeys = pending.flatMap((p) => ("ticket" in p && p.seats ? [p.seats.key] : []));
  const [sold, held] = await Promise.all([
    soldSeatsByKey(db, [...new Set(seatKeys)]),
    heldUnits(db, [...new Set(heldKeys)], now),
  ]);
  return pending.map((p) =>
    "done" in p
      ? p.done
      : "goods" in p
        ? goodsLookup(p.goods, held)
        : ticketLookup(p.ticket, p.session, p.seats, p.seats ? (sold.get(p.seats.key) ?? 0) : 0, held),
  );
}

/**
 * A refusal the checkout's action got, kept for the page drawn right after it in the same request
 * (keyed by that request's context object, which React Router hands to the action and to the
 * loaders alike). A post for something sold out then costs one lookup, not two; on PGlite each
 * waits its turn for the one connection (decision 099). Only refusals are kept: after a lookup that
 * found the item on sale the page looks again, since the order that followed may have found it gone.
 */
const refusedInRequest = new WeakMap<object, { asked: string; found: SellableLookup }>();
const askedFor = (type: string, item: string, choice: RowChoice) => JSON.stringify([type, item, choice]);

export function rememberRefusal(
  context: object,
  type: string,
  item: string,
  found: SellableLookup,
  choice: RowChoice = {},
): void {
  if (!found.ok) refusedInRequest.set(context, { asked: askedFor(type, item, choice), found });
}

/** `findSellable` for the checkout page: the action's refusal in this request if it asked the same, else a lookup. */
export async function findSellableForPage(
  context: { db: Database },
  type: string,
  item: string,
  now: Date,
  choice: RowChoice = {},
): Promise<SellableLookup> {
  const refused = refusedInRequest.get(context);
  if (refused && refused.asked === askedFor(type, item, choice)) return refused.found;
  return findSellable(context.db, type, item, now, choice);
}

async function findCatalogItem(db: Database, which: SQL, now: Date, choice: RowChoice): Promise<SellableLookup> {
  const [row] = await db
    .select()
    .from(catalogItems)
    .where(sql`${which} and not ${catalogItems.archived}`)
    .limit(1);
  if (!row) return { ok: false, reason: "We could not find that item." };
  if (row.optionNames.length > 0) return findProductRow(db, row, now, choice);
  return sellGoods(db, now, goodsOfItem(row));
}

const goodsOfItem = (row: typeof catalogItems.$inferSelect): Goods => ({
  kind: row.kind,
  displayName: row.name,
  priceCents: row.priceCents,
  description: row.description,
  stockQuantity: row.stockQuantity,
  key: catalogStockKey(row.id),
  line: { catalogItemId: row.id },
});

const goodsOfRow = (item: typeof catalogItems.$inferSelect, row: typeof productVariants.$inferSelect): Goods => ({
  kind: item.kind,
  displayName: variantLineName(item.name, item.optionNames, row),
  priceCents: row.priceCents ?? item.priceCents,
  description: item.description,
  stockQuantity: row.stockQuantity,
  key: variantStockKey(row.id),
  line: { catalogItemId: item.id, variantId: row.id },
});

const choiceNotSold = (item: typeof catalogItems.$inferSelect): SellableLookup => ({
  ok: false,
  reason: `That choice of ${item.name} is not sold. Please choose again.`,
});

/**
 * The row of a product with sizes or colours that the buyer chose, priced and counted on its own. A missing
 * choice is refused with what to choose, never guessed; a row switched off, or of another product, is refused.
 */
async function findProductRow(
  db: Database,
  item: typeof catalogItems.$inferSelect,
  now: Date,
  choice: RowChoice,
): Promise<SellableLookup> {
  const options = item.optionNames;
  const missing = options.filter((_, i) => !(choice.variantId || (i === 0 ? choice.option1 : choice.option2)?.trim()));
  if (missing.length > 0) {
    return { ok: false, reason: `Please choose a ${missing.map((o) => o.name).join(" and ")} for ${item.name}.` };
  }
  const typed = [choice.option1, choice.option2].map((v) => v?.trim() ?? "");
  // A NUL cannot be compared by PostgreSQL, and no value is this long: such a choice matches nothing.
  if (typed.some((v) => v.length > MAX_OPTION_TEXT || v.includes("\u0000"))) {
    return { ok: false, reason: `That choice of ${item.name} is not sold. Please choose again.` };
  }
  const [row] = await db
    .select()
    .from(productVariants)
    .where(
      choice.variantId
        ? and(eq(productVariants.catalogItemId, item.id), eq(productVariants.id, choice.variantId))
        : and(
            eq(productVariants.catalogItemId, item.id),
            eq(productVariants.value1, typed[0]),
            eq(productVariants.value2, options.length > 1 ? typed[1] : ""),
          ),
    )
    .limit(1);
  if (!row || !row.enabled) return choiceNotSold(item);
  return sellGoods(db, now, goodsOfRow(item, row));
}

/**
 * A catalog item, or one row of it, priced and counted: refused when priced on request or sold out. Only physical
 * products are shipped; wardrobe solutions and consultations are services.
 */
async function sellGoods(
  db: Database,
  now: Date,
  goods: {
    kind: (typeof catalogItems.$inferSelect)["kind"];
    displayName: string;
    priceCents: number | null;
    description: string;
    stockQuantity: number | null;
    key: string;
    line: Sellable["line"];
  },
): Promise<SellableLookup> {
  const counted = goods.priceCents !== null && goods.stockQuantity !== null;
  const held = counted ? await heldUnits(db, [goods.key], now) : new Map<string, number>();
  return goodsLookup(goods, held);
}

type Goods = Parameters<typeof sellGoods>[2];

/** `sellGoods` once the units held of its key are known (a bag reads them for every line at once). */
function goodsLookup(goods: Goods, held: Map<string, number>): SellableLookup {
  const { displayName, key, stockQuantity } = goods;
  if (goods.priceCents === null) {
    return { ok: false, reason: `${displayName} is priced on request. Please contact us for a quote.` };
  }
  const soldOutReason = `${displayName} is sold out.`;
  let available: number | null = null;
  if (stockQuantity !== null) {
    available = unitsAvailable(stockQuantity, held.get(key) ?? 0);
    if (available === 0) return { ok: false, reason: soldOutReason };
  }
  return {
    ok: true,
    item: {
      orderType: goods.kind === "product" ? "product" : "service",
      displayName,
      amountCents: goods.priceCents,
      description: goods.description,
      stock: stockQuantity === null ? null : { key, limit: stockQuantity, soldOutReason },
      available,
      line: goods.line,
    },
  };
}

async function findMembership(db: Database, slugOrName: string): Promise<SellableLookup> {
  const [row] = await db
    .select()
    .from(membershipTiers)
    // A hidden tier is not offered, so it is not sold either.
    .where(
      sql`(${membershipTiers.slug} = ${slugOrName} or lower(${membershipTiers.name}) = lower(${slugOrName}))
        and ${membershipTiers.visible}`,
    )
    .orderBy(asc(membershipTiers.sortOrder))
    .limit(1);
  if (!row) return { ok: false, reason: "We could not find that membership plan." };
  if (row.priceCents === null) {
    return { ok: false, reason: `${row.name} is priced on request. Please contact us to join this plan.` };
  }
  return {
    ok: true,
    item: {
      orderType: "membership",
      displayName: `${row.name} Membership`,
      amountCents: row.priceCents,
      description: row.description,
      stock: null,
      available: null,
      line: { membershipSlug: row.slug },
    },
  };
}

/**
 * Tickets arrive as "{event title} - {option type}"; the workshop button sends the event title alone
 * (its single option). A recurring event's seats are counted per session: the next one the owner set,
 * or the default first Saturday of the coming month.
 */
type TicketRow = { event: typeof events.$inferSelect; option: typeof ticketOptions.$inferSelect };

/** The ticket a checkout query names: "{event title} - {option type}", or the workshop's title alone. */
function ticketNamed(type: string, name: string) {
  const wanted = name.toLowerCase();
  return (rows: TicketRow[]) =>
    rows.find((r) => `${r.event.title} - ${r.option.type}`.toLowerCase() === wanted) ??
    (type === "workshop" ? rows.find((r) => r.event.title.toLowerCase() === wanted) : undefined);
}

async function findTicket(
  db: Database,
  pick: (rows: TicketRow[]) => TicketRow | undefined,
  now: Date,
): Promise<SellableLookup> {
  const rows = await db
    .select({ event: events, option: ticketOptions })
    .from(ticketOptions)
    .innerJoin(events, eq(events.id, ticketOptions.eventId))
    // An archived event is kept for its orders only: it is not sold.
    .where(eq(events.archived, false))
    .orderBy(asc(events.sortOrder), asc(ticketOptions.sortOrder));
  const match = pick(rows);
  if (!match) return { ok: false, reason: "We could not find that event ticket." };
  const plan = ticketPlan(match, now);
  if (!plan.ok) return plan;
  const session = plan.recurring ? await nextSession(db, match.event.id, now) : null;
  const stock = ticketStock(match, session);
  const sold = stock ? await soldSeats(db, stock.key) : 0;
  const held = stock ? await heldUnits(db, [stock.key], now) : new Map<string, number>();
  return ticketLookup(match, session, stock, sold, held);
}

type Session = Awaited<ReturnType<typeof nextSession>>;

/** Whether a ticket is on sale now, before its seats are counted. */
function ticketPlan(
  { event, option }: TicketRow,
  now: Date,
): { ok: true; recurring: boolean } | { ok: false; reason: string } {
  if (!event.ticketsOnSale) return { ok: false, reason: "Tickets for this event are not on sale yet." };
  const availability = ticketAvailability(option, event, now);
  if (availability.status === "not-yet")
    return { ok: false, reason: `This ticket is not on sale yet: ${availability.label}.` };
  if (availability.status === "closed") return { ok: false, reason: "Sales for this ticket have closed." };
  if (availability.status === "event-over") return { ok: false, reason: "This event has already taken place." };
  return { ok: true, recurring: event.recurring === "monthly" };
}

/** The seats' key and capacity: the session's for a recurring event, else the option's; null when uncounted. */
function ticketStock({ option }: TicketRow, session: Session | null) {
  const capacity = session?.capacity ?? option.capacity;
  if (capacity === null) return null;
  const key = session ? sessionStockKey(option.id, session.startsAt) : ticketStockKey(option.id);
  const soldOutReason = session
    ? `The workshop on ${describeSessionDay(session.startsAt)} is full.`
    : "This ticket is sold out.";
  return { key, capacity, soldOutReason };
}

/** `findTicket` once the seats sold and held of its key are known. */
function ticketLookup(
  { event, option }: TicketRow,
  session: Session | null,
  seats: ReturnType<typeof ticketStock>,
  sold: number,
  held: Map<string, number>,
): SellableLookup {
  let stock: Sellable["stock"] = null;
  let available: number | null = null;
  if (seats) {
    stock = { key: seats.key, limit: seats.capacity - sold, soldOutReason: seats.soldOutReason };
    available = unitsAvailable(stock.limit, held.get(seats.key) ?? 0);
    if (available === 0) return { ok: false, reason: seats.soldOutReason };
  }
  const isWorkshop = session !== null;
  return {
    ok: true,
    item: {
      orderType: isWorkshop ? "workshop" : "ticket",
      displayName: isWorkshop ? event.title : `${event.title} - ${option.type}`,
      amountCents: option.priceCents,
      description: session
        ? `${option.description} (${describeSession(session.startsAt, session.endsAt)})`
        : option.description,
      stock,
      available,
      line: { ticketOptionId: option.id },
    },
  };
}
