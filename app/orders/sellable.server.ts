import { asc, eq, inArray, sql, type SQLWrapper } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { isRowId } from "~/db/row-id";
import { catalogItems, events, membershipTiers, productVariants, ticketOptions } from "~/db/schema";
import { nextSession } from "~/events/sessions.server";
import { heldUnits, soldSeatsByKey } from "~/stock/availability.server";
import {
  choiceNotSold,
  findCatalogItem,
  findProductRow,
  goodsLookup,
  goodsOfItem,
  goodsOfRow,
  type Goods,
} from "./sellable-goods.server";
import type { RowChoice, SellableLookup } from "./sellable-lookup";
import {
  findTicket,
  ticketLookup,
  ticketNamed,
  ticketPlan,
  ticketEventColumns,
  ticketStock,
  type Session,
  type TicketRow,
} from "./sellable-tickets.server";

export type { OrderType, RowChoice, Sellable, SellableLookup } from "./sellable-lookup";

/** The default summary the spec shows with no query parameters (not payable: see decision 041). */
export const DEFAULT_CHECKOUT = { name: "Checkout", amountCents: 20000 } as const;

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
  if (!isRowId(ref.id)) return { ok: false, reason: "We could not find that item." };
  if (ref.kind === "catalog")
    return findCatalogItem(db, sql`${catalogItems.id} = ${ref.id} and ${catalogItems.visible}`, now, ref.choice ?? {});
  return findTicket(db, (rows) => rows.find((r) => r.option.id === ref.id), now);
}

/** The catalog items, their rows and the ticket options a bag's lines name, whatever their state. */
export interface RefRows {
  items: (typeof catalogItems.$inferSelect)[];
  variants: (typeof productVariants.$inferSelect)[];
  tickets: TicketRow[];
}

/** Which rows to read, of each kind: ids, or a query that selects them (the lines of a bag). */
export interface RefRowIds {
  catalog: number[] | SQLWrapper;
  variant: number[] | SQLWrapper;
  ticket: number[] | SQLWrapper;
}

/**
 * The rows `findSellablesByRefs` prices the refs from, read once so that /bag can also draw the lines
 * from them (an archived or hidden item keeps its name and photo there): the same two reads
 * otherwise ran twice per view and per bag checkout, the events' long rows included.
 */
export async function readRefRows(db: Database, refs: SellableRef[]): Promise<RefRows> {
  const idsOf = (kind: SellableRef["kind"]) => [
    ...new Set(refs.filter((r) => r.kind === kind && isRowId(r.id)).map((r) => r.id)),
  ];
  const variant = [
    ...new Set(refs.flatMap((r) => (r.kind === "catalog" && r.choice?.variantId ? [r.choice.variantId] : []))),
  ].filter(isRowId);
  return readRowsOf(db, { catalog: idsOf("catalog"), variant, ticket: idsOf("ticket") });
}

/** `readRefRows` by ids or by queries that select them. */
export async function readRowsOf(db: Database, ids: RefRowIds): Promise<RefRows> {
  const any = (some: number[] | SQLWrapper) => !Array.isArray(some) || some.length > 0;
  // Reads that need nothing from one another go together: each wait is a trip through a busy
  // database's queue (decision 141).
  const [items, variants, tickets] = await Promise.all([
    any(ids.catalog) ? db.select().from(catalogItems).where(inArray(catalogItems.id, ids.catalog)) : [],
    any(ids.variant) ? db.select().from(productVariants).where(inArray(productVariants.id, ids.variant)) : [],
    any(ids.ticket)
      ? db
          .select({ event: ticketEventColumns, option: ticketOptions })
          .from(ticketOptions)
          .innerJoin(events, eq(events.id, ticketOptions.eventId))
          .where(inArray(ticketOptions.id, ids.ticket))
      : [],
  ]);
  return { items, variants, tickets };
}

/** Whether `rows` hold every row the refs name (rows read by a bag's id may miss a line added since). */
export function rowsCoverRefs(rows: RefRows, refs: SellableRef[]): boolean {
  const items = new Set(rows.items.map((i) => i.id));
  const variants = new Set(rows.variants.map((v) => v.id));
  const options = new Set(rows.tickets.map((t) => t.option.id));
  return refs.every((ref) =>
    ref.kind === "ticket"
      ? options.has(ref.id)
      : items.has(ref.id) && (!ref.choice?.variantId || variants.has(ref.choice.variantId)),
  );
}

/**
 * `findSellableByRef` for every line of a bag at once, answered in the refs' order with the same prices
 * and refusals (issue 39, the bag's speed): one statement per kind of thing, whatever the bag's length:
 * the catalog items, their rows, the ticket options, each recurring event's next session, the seats
 * sold, and the units held of every counted key. The refs' own rows come read (`readRefRows`), since
 * /bag draws its lines from the same rows.
 */
export async function findSellablesByRefs(
  db: Database,
  refs: SellableRef[],
  now: Date,
  read: RefRows,
): Promise<SellableLookup[]> {
  // A hidden item is offered by no page, and an archived one or event is kept for its orders only.
  const items = read.items.filter((item) => item.visible && !item.archived);
  const ticketRows = read.tickets.filter((row) => !row.event.archived);
  const itemById = new Map(items.map((i) => [i.id, i]));
  const variantById = new Map(read.variants.map((v) => [v.id, v]));
  const ticketById = new Map(ticketRows.map((r) => [r.option.id, r]));
  const recurringEvents = [
    ...new Set(
      ticketRows.filter((row) => row.event.recurring === "monthly" && ticketPlan(row, now).ok).map((r) => r.event.id),
    ),
  ];
  const nextSessions = await Promise.all(recurringEvents.map((eventId) => nextSession(db, eventId, now)));
  const sessions = new Map<string, Session>(recurringEvents.map((eventId, i) => [eventId, nextSessions[i]!]));

  // Each ref's answer, or what it waits for: goods or seats whose held units (and sold seats) are read below.
  type Pending =
    | { done: SellableLookup }
    | { goods: Goods }
    | { ticket: TicketRow; session: Session | null; seats: ReturnType<typeof ticketStock> };
  const pending: Pending[] = [];
  for (const ref of refs) {
    if (!isRowId(ref.id)) {
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
