import { and, asc, count, eq, inArray, max, ne, sql } from "drizzle-orm";
import { changedFields, recordAudit } from "~/admin/audit.server";
import { slugify } from "~/catalog/product-schema";
import type { Database, Tx } from "~/db/client.server";
import { events, orderLines, ticketOptions } from "~/db/schema";
import { eventDatesInSouthAfrica, eventTimesInSouthAfrica } from "~/lib/dates-in-words";
import { shortRand, tenfoldPriceChange } from "~/lib/money";
import { lockStockKey } from "~/stock/holds.server";
import {
  linesOf,
  parseSouthAfricanDateTime,
  priceCentsOf,
  toSouthAfricanDateTimeLocal,
  type EventInput,
} from "./event-schema";
import type { EventRow, TicketOptionRow } from "./events.server";
import { saleSession, seatCounts, seatKey } from "./seats.server";

export type SaveEventResult =
  | { ok: true; id: string; created: boolean }
  | { ok: false; fieldErrors: Record<string, string>; confirm?: Record<string, number> };

const AUDITED = [
  "title",
  "dates",
  "timeText",
  "startsAt",
  "endsAt",
  "location",
  "focus",
  "description",
  "includes",
  "priceText",
  "participants",
  "images",
  "imageAlts",
] as const;
/** An event as the activity log records it. */
export const eventAuditView = (row: Record<string, unknown>) =>
  Object.fromEntries(AUDITED.map((k) => [k, row[k] instanceof Date ? (row[k] as Date).toISOString() : row[k]]));
const optionsView = (rows: TicketOptionRow[]) =>
  rows.map((o) => ({
    type: o.type,
    priceCents: o.priceCents,
    capacity: o.capacity,
    availableFrom: o.availableFrom?.toISOString() ?? null,
    availableUntil: o.availableUntil?.toISOString() ?? null,
  }));

/**
 * The event row from the form. Date and time texts come from Starts and Ends (in words, decision 072);
 * an event kept without Starts (monthly, or a date to be announced) keeps its texts.
 */
export function eventRowValues(input: EventInput, existing: EventRow | null) {
  const startsAt = parseSouthAfricanDateTime(input.starts);
  const endsAt = startsAt ? parseSouthAfricanDateTime(input.ends) : null;
  const undatedBefore = existing !== null && existing.startsAt === null;
  const prices = [...new Set(input.options.map((o) => priceCentsOf(o.price)))].sort((a, b) => a - b);
  const capacities = input.options.map((o) => (o.capacity === "" ? null : Number(o.capacity)));
  return {
    title: input.title,
    startsAt,
    endsAt,
    dates: startsAt
      ? eventDatesInSouthAfrica(startsAt, endsAt)
      : undatedBefore
        ? existing.dates
        : "Date to be announced",
    timeText: startsAt ? eventTimesInSouthAfrica(startsAt, endsAt) : undatedBefore ? existing.timeText : null,
    location: input.location,
    focus: input.focus,
    description: input.description,
    includes: linesOf(input.includes),
    priceText:
      prices.length === 0
        ? (existing?.priceText ?? "Price to be announced")
        : prices.length === 1
          ? shortRand(prices[0]!)
          : `From ${shortRand(prices[0]!)}`,
    participants:
      capacities.length && capacities.every((c) => c !== null)
        ? `Limited to ${capacities.reduce((a, b) => a! + b!, 0)} participants`
        : (existing?.participants ?? "Open to all"),
    images: input.photos.map((p) => p.src),
    imageAlts: input.photos.map((p) => p.alt),
    // Adding ticket options puts an event's tickets on sale (heritage-radiance shows "coming soon" until then).
    ticketsOnSale: existing ? existing.ticketsOnSale || input.options.length > 0 : true,
  };
}

/**
 * The instant a datetime-local field names; the stored one when the field still shows it. The form has
 * minutes only, so a seeded 23:59:59 survives a save that did not touch it.
 */
function keepSeconds(field: string, stored: Date | null): Date | null {
  if (stored && toSouthAfricanDateTimeLocal(stored) === field.trim()) return stored;
  return parseSouthAfricanDateTime(field);
}

async function ordersOfOptions(tx: Tx, optionIds: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (!optionIds.length) return counts;
  const rows = await tx
    .select({ id: orderLines.ticketOptionId, n: count() })
    .from(orderLines)
    .where(inArray(orderLines.ticketOptionId, optionIds))
    .groupBy(orderLines.ticketOptionId);
  for (const r of rows) if (r.id !== null) counts.set(r.id, Number(r.n));
  return counts;
}

/**
 * Creates or updates an event and its ticket options in one transaction. Errors name the schema's
 * paths: `options.{k}.{field}` for `input.options[k]`, `remove.{j}` for `input.remove[j]`.
 */
export async function saveEvent(
  db: Database,
  args: { id: string | null; input: EventInput; now: Date },
): Promise<SaveEventResult> {
  const { input, now } = args;
  return db.transaction(async (tx): Promise<SaveEventResult> => {
    const before = args.id
      ? (
          await tx
            .select()
            .from(events)
            .where(and(eq(events.id, args.id), eq(events.archived, false)))
            .for("update")
        )[0]
      : undefined;
    if (args.id && !before) return { ok: false as const, fieldErrors: { form: "This event no longer exists." } };
    const id = before?.id ?? slugify(input.title);
    if (!id)
      return {
        ok: false as const,
        fieldErrors: { title: "Use letters or digits in the Title: the event's address is made from it." },
      };

    const { fieldErrors, confirm, stored, storedById, keptIds, removeIds, untouched } = await eventSaveProblems(tx, {
      before,
      id,
      input,
      now,
    });
    if (Object.keys(fieldErrors).length) return { ok: false as const, fieldErrors, confirm };

    const values = eventRowValues(
      {
        ...input,
        options: [
          ...input.options,
          ...untouched.map((u) => ({
            id: String(u.id),
            type: u.type,
            price: (u.priceCents / 100).toFixed(2),
            confirmPrice: "",
            capacity: u.capacity === null ? "" : String(u.capacity),
            from: "",
            until: "",
          })),
        ],
      },
      before ?? null,
    );
    if (before) {
      values.startsAt = keepSeconds(input.starts, before.startsAt);
      values.endsAt = values.startsAt ? keepSeconds(input.ends, before.endsAt) : null;
    }
    let after: EventRow;
    if (!before) {
      const [{ top }] = await tx.select({ top: max(events.sortOrder) }).from(events);
      [after] = await tx
        .insert(events)
        .values({ id, ...values, sortOrder: (top ?? 0) + 1, createdAt: now, updatedAt: now })
        .returning();
    } else {
      [after] = await tx
        .update(events)
        .set({ ...values, updatedAt: now })
        .where(eq(events.id, id))
        .returning();
    }

    await writeTicketOptions(tx, id, input, { storedById, keptIds, removeIds });
    const optionsAfter = await tx
      .select()
      .from(ticketOptions)
      .where(eq(ticketOptions.eventId, id))
      .orderBy(asc(ticketOptions.sortOrder), asc(ticketOptions.id));

    await auditEventSave(tx, { id, before, after, optionsBefore: stored, optionsAfter }, now);
    return { ok: true as const, id, created: !before };
  });
}

/**
 * What stops a save, as field errors under the schema's paths: options gone since the page was drawn,
 * options with orders ticked for removal, capacity below the seats sold or held (under the lock checkout
 * holds take), a Ticket type twice, and a tenfold price change not yet confirmed. With what the save needs
 * of the stored options.
 */
async function eventSaveProblems(
  tx: Tx,
  { before, id, input, now }: { before: EventRow | undefined; id: string; input: EventInput; now: Date },
) {
  const fieldErrors: Record<string, string> = {};
  if (!before) {
    const [taken] = await tx.select({ id: events.id }).from(events).where(eq(events.id, id));
    if (taken) fieldErrors.title = `An event with the address /tickets/${id} already exists. Choose another Title.`;
  }
  const [sameTitle] = await tx
    .select({ id: events.id })
    .from(events)
    .where(and(sql`lower(${events.title}) = lower(${input.title})`, ne(events.id, id)))
    .limit(1);
  // Checkout finds a ticket by "{event title} - {ticket type}", so two events may not share a title.
  if (sameTitle) fieldErrors.title ??= "Another event already has this Title.";

  const stored = before ? await tx.select().from(ticketOptions).where(eq(ticketOptions.eventId, id)) : [];
  const storedById = new Map(stored.map((o) => [o.id, o]));
  const keptIds = input.options.filter((o) => o.id !== "").map((o) => Number(o.id));
  const removeIds = input.remove.map(Number);
  input.options.forEach((o, k) => {
    if (o.id !== "" && !storedById.has(Number(o.id)))
      fieldErrors[`options.${k}.type`] = "This ticket option no longer exists. Reload the page.";
  });
  input.remove.forEach((rid, j) => {
    if (!storedById.has(Number(rid)))
      fieldErrors[`remove.${j}`] = "This ticket option no longer exists. Reload the page.";
  });
  const orders = await ordersOfOptions(
    tx,
    removeIds.filter((r) => storedById.has(r)),
  );
  input.remove.forEach((rid, j) => {
    const n = orders.get(Number(rid)) ?? 0;
    if (n > 0)
      fieldErrors[`remove.${j}`] ??=
        `${storedById.get(Number(rid))?.type} has ${n} ${n === 1 ? "order" : "orders"}, so it can't be removed. Set ` +
        `On sale until to stop selling it.`;
  });
  // A stored option that is neither kept nor ticked for removal was dropped from the form: keep it.
  const untouched = stored.filter((o) => !keptIds.includes(o.id) && !removeIds.includes(o.id));

  // Seats already sold or held: capacity can't go below them (under the lock checkout holds take).
  for (const [k, o] of input.options.entries()) {
    const row = o.id === "" ? undefined : storedById.get(Number(o.id));
    if (!row || o.capacity === "" || Number(o.capacity) === row.capacity) continue;
    const session = before ? await saleSession(tx, before, now) : null;
    await lockStockKey(tx, seatKey(row.id, session));
    const seats = (await seatCounts(tx, [row], session, now)).get(row.id);
    const taken = (seats?.sold ?? 0) + (seats?.held ?? 0);
    if (Number(o.capacity) < taken)
      fieldErrors[`options.${k}.capacity`] =
        `${taken} ${taken === 1 ? "seat is" : "seats are"} sold or held: Capacity can't be lower than ${taken}.`;
  }
  const clashWithUntouched = input.options.findIndex((o) =>
    untouched.some((u) => u.type.toLowerCase() === o.type.toLowerCase()),
  );
  if (clashWithUntouched >= 0)
    fieldErrors[`options.${clashWithUntouched}.type`] ??= "Another ticket option of this event has this Ticket type.";
  // A tenfold change is most often a separator read the wrong way: it waits for a second save (decision 103).
  const confirm: Record<string, number> = {};
  input.options.forEach((o, k) => {
    const row = o.id === "" ? undefined : storedById.get(Number(o.id));
    const cents = priceCentsOf(o.price);
    const question = row ? tenfoldPriceChange(row.priceCents, cents) : null;
    if (question && o.confirmPrice !== String(cents)) {
      fieldErrors[`options.${k}.price`] ??= question;
      confirm[`options.${k}.price`] = cents;
    }
  });
  return { fieldErrors, confirm, stored, storedById, keptIds, removeIds, untouched };
}

/** The options' rows: removed, then kept and new ones written in the form's order. */
async function writeTicketOptions(
  tx: Tx,
  id: string,
  input: EventInput,
  {
    storedById,
    keptIds,
    removeIds,
  }: { storedById: Map<number, TicketOptionRow>; keptIds: number[]; removeIds: number[] },
) {
  if (removeIds.length)
    await tx.delete(ticketOptions).where(and(eq(ticketOptions.eventId, id), inArray(ticketOptions.id, removeIds)));
  // Types move out of the way first, so that two options swapping types never meet the unique index.
  if (keptIds.length) {
    await tx
      .update(ticketOptions)
      .set({ type: sql`'~' || ${ticketOptions.id}::text` })
      .where(and(eq(ticketOptions.eventId, id), inArray(ticketOptions.id, keptIds)));
  }
  for (const [k, o] of input.options.entries()) {
    const row = o.id === "" ? undefined : storedById.get(Number(o.id));
    const fields = {
      type: o.type,
      priceCents: priceCentsOf(o.price),
      capacity: o.capacity === "" ? null : Number(o.capacity),
      availableFrom: keepSeconds(o.from, row?.availableFrom ?? null),
      availableUntil: keepSeconds(o.until, row?.availableUntil ?? null),
      sortOrder: k + 1,
    };
    if (o.id === "") await tx.insert(ticketOptions).values({ eventId: id, description: "", ...fields });
    else
      await tx
        .update(ticketOptions)
        .set(fields)
        .where(eq(ticketOptions.id, Number(o.id)));
  }
}

/** The activity log's line for a new event, or for the fields a save changed (none: no line). */
async function auditEventSave(
  tx: Tx,
  {
    id,
    before,
    after,
    optionsBefore,
    optionsAfter,
  }: {
    id: string;
    before: EventRow | undefined;
    after: EventRow;
    optionsBefore: TicketOptionRow[];
    optionsAfter: TicketOptionRow[];
  },
  now: Date,
) {
  if (!before) {
    await recordAudit(
      tx,
      {
        action: "event.create",
        entity: "event",
        entityId: id,
        summary: `Added ${after.title}`,
        after: { ...eventAuditView(after), options: optionsView(optionsAfter) },
      },
      now,
    );
    return { ok: true as const, id, created: true };
  }
  const diff = changedFields(
    {
      ...eventAuditView(before),
      options: optionsView(optionsBefore.sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id)),
    },
    { ...eventAuditView(after), options: optionsView(optionsAfter) },
  );
  if (diff.fields.length) {
    await recordAudit(
      tx,
      {
        action: "event.update",
        entity: "event",
        entityId: id,
        summary: `Changed ${diff.fields.join(", ")} of ${after.title}`,
        before: diff.before,
        after: diff.after,
      },
      now,
    );
  }
}
