import { keyedHash } from "~/lib/keyed-hash.server";
import { and, eq, gt, sql, type SQL } from "drizzle-orm";
import type { ClientKey } from "~/lib/client-address.server";
import type { Tx } from "~/db/client.server";
import { catalogItems, productVariants, stockHolds, ticketOptions } from "~/db/schema";
import { heldUnits, sessionCapacityForKey, soldSeats } from "./availability.server";

export class OutOfStockError extends Error {
  constructor(
    reason: string,
    /** The units left when the count was made under the key's lock (a single hold's refusal). */
    readonly left?: number,
  ) {
    super(reason);
    this.name = "OutOfStockError";
  }
}

/** Unpaid units one client address may hold at once: of one item, and in all (issue 23). */
export const MAX_HELD_UNITS_PER_ITEM = 3;
export const MAX_HELD_UNITS_PER_CLIENT = 5;

/** Too many unpaid units held by one client; the message is the toast's description. */
export class HoldLimitError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "HoldLimitError";
  }
}

/**
 * The stock_holds.client_key of an address: an HMAC keyed with the session secret (the same on every
 * instance), so the table never holds a buyer's address. IPv6 counts by its /64.
 */
export function holdClientKey(client: ClientKey, secret: string): string {
  return keyedHash(secret, "hold", client);
}

/**
 * Serialises everything that counts or changes one stock key until the transaction ends. A
 * transaction-scoped advisory lock works the same on PGlite and PostgreSQL and also covers ticket
 * seats, which have no row of their own to lock (decision 042).
 */
export async function lockStockKey(tx: Tx, key: string): Promise<void> {
  await lockSentNow(tx, key);
}

/**
 * Sends the lock's statement at once, before any statement the caller sends after this call (the
 * reads that must see what was committed before the lock). Decision 141: a transaction on PGlite waits
 * for the main thread between two statements, so the reads go right behind it, not after its answer.
 */
function lockSentNow(tx: Tx, key: string): Promise<unknown> {
  return sentNow(tx, sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

/** Sends `statement` at once; its failure is thrown where the answer is awaited, never left unhandled. */
function sentNow(tx: Tx, statement: SQL): Promise<unknown> {
  const running = tx.execute(statement).execute();
  running.catch(() => {});
  return running;
}

/**
 * Whether a hold's key names stock or seats. An "unpaid:…" hold (an order of something uncounted)
 * only counts against its buyer's budget: no lock, no units, no sale to record (decision 108).
 */
export const countsUnits = (key: string) => !key.startsWith("unpaid:");

/** Units that exist for a key before holds: the catalog row's stock, or capacity minus seats sold. */
export async function unitsForKey(tx: Tx, key: string): Promise<number | null> {
  const [kind, id] = key.split(":");
  if (kind === "catalog") {
    const [row] = await tx
      .select({ n: catalogItems.stockQuantity })
      .from(catalogItems)
      .where(eq(catalogItems.id, Number(id)));
    return row?.n ?? null;
  }
  if (kind === "variant") {
    const [row] = await tx
      .select({ n: productVariants.stockQuantity })
      .from(productVariants)
      .where(eq(productVariants.id, Number(id)));
    return row?.n ?? null;
  }
  if (kind === "ticket") {
    // Three reads that need nothing from one another: one wait (decision 141).
    const [[row], sessionCapacity, sold] = await Promise.all([
      tx
        .select({ capacity: ticketOptions.capacity })
        .from(ticketOptions)
        .where(eq(ticketOptions.id, Number(id))),
      sessionCapacityForKey(tx, key),
      soldSeats(tx, key),
    ]);
    const capacity = sessionCapacity ?? row?.capacity ?? null;
    if (capacity === null) return null;
    return capacity - sold;
  }
  return null;
}

export async function activeHeld(tx: Tx, key: string, now: Date): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`coalesce(sum(${stockHolds.quantity}), 0)::int` })
    .from(stockHolds)
    .where(and(eq(stockHolds.stockKey, key), eq(stockHolds.status, "held"), gt(stockHolds.expiresAt, now)));
  return Number(row?.n ?? 0);
}

/** Units this client holds unpaid and unexpired: of one stock key, and in all. */
async function clientHeld(tx: Tx, clientKey: string, key: string, now: Date) {
  const [row] = await tx
    .select({
      item: sql<number>`coalesce(sum(${stockHolds.quantity}) filter (where ${stockHolds.stockKey} = ${key}), 0)::int`,
      all: sql<number>`coalesce(sum(${stockHolds.quantity}), 0)::int`,
    })
    .from(stockHolds)
    .where(and(eq(stockHolds.clientKey, clientKey), eq(stockHolds.status, "held"), gt(stockHolds.expiresAt, now)));
  return { item: Number(row?.item ?? 0), all: Number(row?.all ?? 0) };
}

/** Why a client holding `held` unpaid may not hold `quantity` more, or null when it may. */
export function holdLimitReason(
  itemName: string,
  held: { item: number; all: number },
  quantity: number,
  minutes: number,
): string | null {
  const release = `Please finish paying for those first; unpaid checkouts are released after ${minutes} minutes.`;
  if (held.item + quantity > MAX_HELD_UNITS_PER_ITEM) {
    return `${itemName}: ${held.item} are already waiting for payment from you, the most one buyer can hold. ${release}`;
  }
  if (held.all + quantity > MAX_HELD_UNITS_PER_CLIENT) {
    return `You already have ${held.all} items waiting for payment, the most one buyer can hold at once. ${release}`;
  }
  return null;
}

/**
 * The budget check of an order of something uncounted, as parts of the one statement that stores the
 * order (createPendingOrder): `held` reads what the client holds unpaid (item, total), `allowed` yields
 * a row only when `quantity` more fit, and `hold` is the hold row to store from the order it allowed.
 */
export function unpaidBudget(clientKey: string, key: string, quantity: number, now: Date) {
  return {
    // The function takes the client's lock, then counts afresh (migration 0014): strict on PostgreSQL,
    // where statements run side by side, as on PGlite, where they run one at a time.
    held: sql`select item, total
      from unpaid_holds_of_client(${clientKey}, ${key}, ${sql.param(now, stockHolds.expiresAt)}::timestamptz)`,
    allowed: sql`select 1 from budget
      where item + ${quantity} <= ${MAX_HELD_UNITS_PER_ITEM} and total + ${quantity} <= ${MAX_HELD_UNITS_PER_CLIENT}`,
    hold: (orderId: string, minutes: number) => holdRow({ orderId, key, quantity, clientKey, now, minutes }),
  };
}

/** The row of one unpaid hold of `quantity` units of `key`, which ends `minutes` after `now`. */
export function holdRow(hold: {
  orderId: string;
  key: string;
  quantity: number;
  clientKey: string | null;
  now: Date;
  minutes: number;
}) {
  return {
    orderId: hold.orderId,
    stockKey: hold.key,
    quantity: hold.quantity,
    expiresAt: new Date(hold.now.getTime() + hold.minutes * 60_000),
    clientKey: hold.clientKey,
  };
}

/** The refusal of an uncounted order the budget did not allow, from the counts its statement read. */
export function unpaidLimitReason(
  itemName: string,
  heldItem: number,
  heldTotal: number,
  quantity: number,
  minutes: number,
): string {
  return (
    holdLimitReason(itemName, { item: heldItem, all: heldTotal }, quantity, minutes) ??
    "Please finish paying for your other checkouts first."
  );
}

/**
 * Holds `quantity` units for an order, or throws OutOfStockError (none left) or HoldLimitError (this
 * client holds enough unpaid already); call inside the order's transaction.
 */
export async function placeHold(
  tx: Tx,
  hold: {
    orderId: string;
    key: string;
    quantity: number;
    soldOutReason: string;
    itemName: string;
    now: Date;
    minutes: number;
    clientKey: string | null;
  },
): Promise<void> {
  // The client's lock comes before any stock key's, and nothing takes them the other way round,
  // so two checkouts of one client for different items cannot both slip under the total. Both locks
  // are sent first and the counts right behind them, which run once the locks are held (decision 141).
  const counts = countsUnits(hold.key);
  const locked = [
    hold.clientKey ? lockSentNow(tx, `client:${hold.clientKey}`) : undefined,
    counts ? lockSentNow(tx, hold.key) : undefined,
  ];
  const [held, units, taken] = await Promise.all([
    hold.clientKey ? clientHeld(tx, hold.clientKey, hold.key, hold.now) : undefined,
    counts ? unitsForKey(tx, hold.key) : null,
    counts ? activeHeld(tx, hold.key, hold.now) : 0,
  ]);
  await Promise.all(locked);
  if (held) {
    const refused = holdLimitReason(hold.itemName, held, hold.quantity, hold.minutes);
    if (refused) throw new HoldLimitError(refused);
  }
  if (units != null && units - taken < hold.quantity)
    throw new OutOfStockError(hold.soldOutReason, Math.max(0, units - taken));
  await tx.insert(stockHolds).values(holdRow(hold));
}

/** A hold of a bag's line that could not be placed: which line (in the order given), and why. */
export class LineOutOfStockError extends OutOfStockError {
  constructor(
    reason: string,
    readonly index: number,
  ) {
    super(reason);
    this.name = "LineOutOfStockError";
  }
}

/**
 * `placeHold` for every line of a bag at once (issue 39, the bag's speed), with the same locks and
 * refusals in the same order: the client's lock, then every counted key's lock in the order given
 * (callers sort them), then one read of what the client holds, one of what is held of each key, and
 * one insert of every hold. Lines are judged in order, each counting the ones before it, so the first
 * line that does not fit is refused: HoldLimitError, or LineOutOfStockError naming its index.
 */
export async function placeHolds(
  tx: Tx,
  bag: {
    orderId: string;
    now: Date;
    minutes: number;
    clientKey: string | null;
    holds: { key: string; quantity: number; soldOutReason: string; itemName: string }[];
  },
): Promise<void> {
  const { now, clientKey, holds } = bag;
  if (!holds.length) return;
  const unexpired = and(eq(stockHolds.status, "held"), gt(stockHolds.expiresAt, now));
  const counted = [...new Set(holds.map((h) => h.key).filter(countsUnits))];
  // The locks are sent first, the client's then the keys', and every count right behind them: the
  // counts run once the locks are held, and the transaction waits once for all of them (decision 141).
  const clientLocked = clientKey ? lockSentNow(tx, `client:${clientKey}`) : undefined;
  // One statement takes the keys' locks one after another in the order given (a volatile function in
  // the select list runs row by row after the ordering), as placeHold line by line would.
  const keysLocked = counted.length
    ? sentNow(
        tx,
        sql`select pg_advisory_xact_lock(hashtext(k)) from unnest(array[${sql.join(
          counted.map((k) => sql`${k}`),
          sql`, `,
        )}]::text[]) with ordinality as t(k, n) order by n`,
      )
    : undefined;
  const [, , clientRows, unitsOfKeys, held] = await Promise.all([
    clientLocked,
    keysLocked,
    clientKey
      ? tx
          .select({ key: stockHolds.stockKey, n: sql<number>`coalesce(sum(${stockHolds.quantity}), 0)::int` })
          .from(stockHolds)
          .where(and(eq(stockHolds.clientKey, clientKey), unexpired))
          .groupBy(stockHolds.stockKey)
      : [],
    Promise.all(counted.map((key) => unitsForKey(tx, key))),
    heldUnits(tx, counted, now),
  ]);
  const byClient = new Map(clientRows.map((row) => [row.key, Number(row.n)]));
  const units = new Map(counted.map((key, i) => [key, unitsOfKeys[i]!]));
  const clientAll = [...byClient.values()].reduce((sum, n) => sum + n, 0);
  judgeHolds(holds, { clientKey, byClient, clientAll, units, held, minutes: bag.minutes });
  await tx
    .insert(stockHolds)
    .values(holds.map((hold) => holdRow({ ...hold, orderId: bag.orderId, clientKey, now, minutes: bag.minutes })));
}

/**
 * Judges a bag's holds line by line, each counting the ones before it, from the counts read under the
 * locks: throws HoldLimitError or LineOutOfStockError (naming its index) for the first that does not fit.
 */
export function judgeHolds(
  holds: { key: string; quantity: number; soldOutReason: string; itemName: string }[],
  counts: {
    clientKey: string | null;
    /** Units the client holds unpaid, by key. */
    byClient: Map<string, number>;
    clientAll: number;
    /** Units that exist for each counted key (null: not counted). */
    units: Map<string, number | null>;
    /** Units held unpaid of each counted key. */
    held: Map<string, number>;
    minutes: number;
  },
): void {
  const { clientKey, units, minutes } = counts;
  const byClient = new Map(counts.byClient);
  const held = new Map(counts.held);
  let clientAll = counts.clientAll;
  for (const [index, hold] of holds.entries()) {
    if (clientKey) {
      const item = byClient.get(hold.key) ?? 0;
      const refused = holdLimitReason(hold.itemName, { item, all: clientAll }, hold.quantity, minutes);
      if (refused) throw new HoldLimitError(refused);
      byClient.set(hold.key, item + hold.quantity);
      clientAll += hold.quantity;
    }
    if (countsUnits(hold.key)) {
      const left = units.get(hold.key) ?? null;
      const taken = held.get(hold.key) ?? 0;
      if (left !== null && left - taken < hold.quantity) throw new LineOutOfStockError(hold.soldOutReason, index);
      held.set(hold.key, taken + hold.quantity);
    }
  }
}
