import { eq } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import { bagLines } from "~/db/schema";
import { variantLabel, type ProductOption } from "~/catalog/product-options";
import {
  findSellablesByRefs,
  readRefRows,
  readRowsOf,
  rowsCoverRefs,
  type RefRows,
  type Sellable,
} from "~/orders/sellable.server";
import { bagIdOf } from "./bag-cookie.server";
import { quantityChoices } from "./bag-limits";
import { openBag, refOfLine, type BagLineRow, type OpenedBag } from "./bag-store.server";

/** One bag line as /bag shows it, priced from the catalog as it is now. */
export interface BagLineView {
  id: number;
  name: string;
  /** The ticket option (and the workshop's session), or null for a catalog item. */
  option: string | null;
  href: string;
  photo: { src: string; alt: string } | null;
  unitPriceCents: number | null;
  quantity: number;
  /** Quantities the line may be set to now (empty when it cannot be bought). */
  choices: number[];
  /** Why the line is left out of the total, or null when it counts. */
  problem: string | null;
}

export interface BagView {
  lines: BagLineView[];
  subtotalCents: number;
  /** Units in the lines that count: what checkout would hold. */
  units: number;
}

/** A bag line that can be bought as it stands, with what the catalog sells it as now. */
export interface BuyableLine {
  line: BagLineRow;
  item: Sellable;
}

interface Display {
  name: string;
  option: string | null;
  href: string;
  photo: { src: string; alt: string } | null;
}

const NO_LONGER_SOLD: Display = { name: "An item no longer sold", option: null, href: "/", photo: null };

/** Names, links and photos of what the lines name, whatever their state (an archived item keeps its name). */
function displays({ items, variants, tickets }: RefRows): (line: BagLineRow) => Display {
  const shown = new Map<string, Display>();
  const optionsOf = new Map<number, ProductOption[]>();
  for (const item of items) {
    const src = item.images[0];
    optionsOf.set(item.id, item.optionNames);
    shown.set(`catalog:${item.id}`, {
      name: item.name,
      option: null,
      href: `/product/${encodeURIComponent(item.slug)}`,
      photo: src ? { src, alt: item.imageAlts[0] || item.name } : null,
    });
  }
  // A size or colour is the line's option, with its own photo when the owner gave it one.
  for (const row of variants) {
    const product = shown.get(`catalog:${row.catalogItemId}`);
    if (!product) continue;
    shown.set(`variant:${row.id}`, {
      ...product,
      option: variantLabel(optionsOf.get(row.catalogItemId) ?? [], row),
      photo: row.image ? { src: row.image, alt: product.photo?.alt ?? product.name } : product.photo,
    });
  }
  for (const { event, option } of tickets) {
    const src = event.images[0];
    shown.set(`ticket:${option.id}`, {
      name: event.title,
      option: option.type,
      href: event.recurring === "monthly" ? "/workshop/tablecloth-skirt" : `/tickets/${encodeURIComponent(event.id)}`,
      photo: src ? { src, alt: event.imageAlts[0] || event.title } : null,
    });
  }
  return (line) => shown.get(line.lineKey) ?? NO_LONGER_SOLD;
}

const NO_ROWS: RefRows = { items: [], variants: [], tickets: [] };

/**
 * `openBag`, with the rows its lines name read alongside, found by the bag's id: a view or a checkout
 * then waits on the database once before the held units, not twice (issue 39). `viewBag` reads again
 * whatever those rows miss (a line added in between).
 */
export async function openBagWithRows(
  db: Database,
  token: string | null,
  now: Date,
): Promise<OpenedBag & { rows: RefRows }> {
  if (!token) return { ...(await openBag(db, token, now)), rows: NO_ROWS };
  const bagId = bagIdOf(token);
  const ofLines = (column: PgColumn) => db.select({ id: column }).from(bagLines).where(eq(bagLines.bagId, bagId));
  const [opened, rows] = await Promise.all([
    openBag(db, token, now),
    readRowsOf(db, {
      catalog: ofLines(bagLines.catalogItemId),
      variant: ofLines(bagLines.variantId),
      ticket: ofLines(bagLines.ticketOptionId),
    }),
  ]);
  return { ...opened, rows };
}

/**
 * The bag's lines with today's prices and what is left: a line that cannot be bought as it stands
 * (archived, hidden, sold out, fewer left than it asks) is marked and left out of the total, never removed.
 */
export async function viewBag(
  db: Database,
  /** The bag's lines, as `openBag` read them. */
  lines: BagLineRow[],
  now: Date,
  /** The rows the lines name, when read already (`openBagWithRows`). */
  read?: RefRows,
): Promise<BagView & { buyable: BuyableLine[] }> {
  // Every line's item in one pass: one statement per kind of thing, not one lookup per line (issue 39);
  // the names and photos are drawn from the same rows.
  const refs = lines.map(refOfLine);
  const rows = read && rowsCoverRefs(read, refs) ? read : await readRefRows(db, refs);
  const displayOf = displays(rows);
  const lookups = await findSellablesByRefs(db, refs, now, rows);
  const views: BagLineView[] = [];
  const buyable: BuyableLine[] = [];
  for (const [i, line] of lines.entries()) {
    const found = lookups[i]!;
    const display = displayOf(line);
    let problem: string | null = null;
    if (!found.ok) problem = found.reason === "We could not find that item." ? "No longer sold." : found.reason;
    else if ((found.item.available ?? null) !== null && found.item.available! < line.quantity)
      problem = `Only ${found.item.available} left.`;
    if (found.ok && !problem) buyable.push({ line, item: found.item });
    views.push({
      id: line.id,
      name: display.name,
      option: found.ok && found.item.line.ticketOptionId ? optionText(display, found.item) : display.option,
      href: display.href,
      photo: display.photo,
      unitPriceCents: found.ok ? found.item.amountCents : null,
      quantity: line.quantity,
      choices: found.ok ? quantityChoices(found.item.available ?? null) : [],
      problem,
    });
  }
  return {
    lines: views,
    buyable,
    subtotalCents: buyable.reduce((sum, b) => sum + b.item.amountCents * b.line.quantity, 0),
    units: buyable.reduce((n, b) => n + b.line.quantity, 0),
  };
}

/** A ticket line's option: its type, and for the workshop the session it buys (the sellable's description says it). */
function optionText(display: Display, item: Sellable): string | null {
  if (item.orderType !== "workshop") return display.option;
  const session = item.description?.match(/\(([^()]*)\)$/)?.[1];
  return session ? `${display.option} · ${session}` : display.option;
}
