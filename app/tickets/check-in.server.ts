import { and, asc, desc, eq, ilike, isNotNull, isNull, or, sql } from "drizzle-orm";
import { TransactionRollbackError } from "drizzle-orm/errors";
import type { Database } from "~/db/client.server";
import { checkIns, events, orders, ticketOptions, tickets } from "~/db/schema";
import { normaliseTicketCode } from "./codes";

export type ScanOutcome = "admitted" | "already" | "invalid" | "conflict";

export interface ScanResult {
  outcome: ScanOutcome;
  holderName?: string;
  ticketType?: string;
  /** When it was admitted (the first admission for "already" and "conflict"). */
  checkedInAt?: string;
}

type TicketRow = typeof tickets.$inferSelect;

async function ticketWithType(db: Pick<Database, "select">, code: string) {
  const [row] = await db
    .select({ ticket: tickets, type: ticketOptions.type })
    .from(tickets)
    .leftJoin(ticketOptions, eq(ticketOptions.id, tickets.ticketOptionId))
    .where(eq(tickets.code, code))
    .limit(1);
  return row;
}

const typeOf = (row: { type: string | null } | undefined) => row?.type ?? "Ticket";

/**
 * Admits a ticket at the door. One conditional update decides: of any number of devices scanning
 * the same code at once, exactly one sees a row come back, and every other sees "already".
 */
export async function checkInByCode(
  db: Database,
  input: { code: string; deviceId: string; now: Date; eventId?: string },
): Promise<ScanResult> {
  const code = normaliseTicketCode(input.code);
  const [admitted] = await db
    .update(tickets)
    .set({ checkedInAt: input.now, checkedInDevice: input.deviceId })
    .where(
      and(
        eq(tickets.code, code),
        isNull(tickets.checkedInAt),
        eq(tickets.voided, false),
        input.eventId ? eq(tickets.eventId, input.eventId) : undefined,
      ),
    )
    .returning();
  if (admitted) {
    await recordScan(db, admitted, code, input.deviceId, input.now, "admitted");
    const type = await db.select({ type: ticketOptions.type }).from(ticketOptions).where(eq(ticketOptions.id, admitted.ticketOptionId ?? -1));
    return { outcome: "admitted", holderName: admitted.holderName, ticketType: typeOf(type[0]), checkedInAt: admitted.checkedInAt!.toISOString() };
  }
  const row = code.length <= 100 ? await ticketWithType(db, code) : undefined;
  if (!row || row.ticket.voided || (input.eventId && row.ticket.eventId !== input.eventId)) {
    await recordScan(db, null, code.slice(0, 100), input.deviceId, input.now, "invalid");
    return { outcome: "invalid" };
  }
  await recordScan(db, row.ticket, code, input.deviceId, input.now, "already");
  return { outcome: "already", holderName: row.ticket.holderName, ticketType: typeOf(row), checkedInAt: row.ticket.checkedInAt?.toISOString() };
}

async function recordScan(
  db: Pick<Database, "insert">,
  ticket: TicketRow | null,
  code: string,
  deviceId: string,
  at: Date,
  outcome: "admitted" | "already" | "invalid" | "undone" | "conflict",
  offline?: { clientScanId: string },
) {
  return db
    .insert(checkIns)
    .values({ ticketId: ticket?.id ?? null, code, deviceId, scannedAt: at, outcome, offline: Boolean(offline), clientScanId: offline?.clientScanId ?? null })
    .onConflictDoNothing()
    .returning({ id: checkIns.id });
}

/** Takes back this device's latest admission that still stands (a mistaken scan). */
export async function undoLastCheckIn(db: Database, deviceId: string, now: Date): Promise<ScanResult | null> {
  return db.transaction(async (tx) => {
    const [last] = await tx
      .select({ ticket: tickets })
      .from(checkIns)
      .innerJoin(tickets, eq(tickets.id, checkIns.ticketId))
      .where(and(eq(checkIns.deviceId, deviceId), eq(checkIns.outcome, "admitted"), eq(tickets.checkedInDevice, deviceId), isNotNull(tickets.checkedInAt)))
      .orderBy(desc(checkIns.id))
      .limit(1);
    if (!last) return null;
    const [undone] = await tx
      .update(tickets)
      .set({ checkedInAt: null, checkedInDevice: null })
      .where(and(eq(tickets.id, last.ticket.id), eq(tickets.checkedInDevice, deviceId)))
      .returning();
    if (!undone) return null;
    await recordScan(tx, undone, undone.code, deviceId, now, "undone");
    return { outcome: "admitted", holderName: undone.holderName };
  });
}

export interface OfflineScan {
  clientScanId: string;
  code: string;
  scannedAt: string;
}

export interface SyncedScan {
  clientScanId: string;
  outcome: ScanOutcome;
  holderName?: string;
}

/**
 * A device's queued offline admissions. Each is stored once per (device, client scan id), so a
 * repeated sync changes nothing and answers what it answered before. A ticket another device had
 * already admitted becomes a "conflict" the owner sees: the person was let in twice.
 */
export async function syncOfflineScans(db: Database, deviceId: string, scans: OfflineScan[], now: Date): Promise<SyncedScan[]> {
  const results: SyncedScan[] = [];
  for (const scan of scans) {
    const [seen] = await db
      .select({ outcome: checkIns.outcome, holderName: tickets.holderName })
      .from(checkIns)
      .leftJoin(tickets, eq(tickets.id, checkIns.ticketId))
      .where(and(eq(checkIns.deviceId, deviceId), eq(checkIns.clientScanId, scan.clientScanId)));
    if (seen) {
      results.push({ clientScanId: scan.clientScanId, outcome: seen.outcome as ScanOutcome, holderName: seen.holderName ?? undefined });
      continue;
    }
    const scannedAt = new Date(scan.scannedAt);
    // A device clock far off is not trusted beyond the server's now.
    const at = Number.isNaN(scannedAt.getTime()) || scannedAt > now ? now : scannedAt;
    const code = normaliseTicketCode(scan.code);
    const result = await db.transaction(async (tx) => {
      const [admitted] = await tx
        .update(tickets)
        .set({ checkedInAt: at, checkedInDevice: deviceId })
        .where(and(eq(tickets.code, code), isNull(tickets.checkedInAt), eq(tickets.voided, false)))
        .returning();
      let ticket: TicketRow | null = admitted ?? null;
      let outcome: ScanOutcome = "admitted";
      if (!admitted) {
        ticket = (code.length <= 100 ? (await ticketWithType(tx, code))?.ticket : undefined) ?? null;
        if (!ticket || ticket.voided) outcome = "invalid";
        else if (ticket.checkedInDevice === deviceId) outcome = "already";
        else outcome = "conflict";
      }
      const stored = await recordScan(tx, outcome === "invalid" ? null : ticket, code.slice(0, 100), deviceId, at, outcome, { clientScanId: scan.clientScanId });
      // A concurrent sync of the same scan stored it first: undo this admission and answer as it did.
      if (!stored.length) tx.rollback();
      return { clientScanId: scan.clientScanId, outcome, holderName: ticket?.holderName };
    }).catch(async (error: unknown) => {
      if (!(error instanceof TransactionRollbackError)) throw error;
      const [again] = await db
        .select({ outcome: checkIns.outcome })
        .from(checkIns)
        .where(and(eq(checkIns.deviceId, deviceId), eq(checkIns.clientScanId, scan.clientScanId)));
      return { clientScanId: scan.clientScanId, outcome: (again?.outcome ?? "already") as ScanOutcome };
    });
    results.push(result);
  }
  return results;
}

/** The events with tickets, and their sessions, for the door's picker. */
export async function doorEvents(db: Database) {
  const rows = await db
    .select({ eventId: tickets.eventId, title: events.title, startsAt: tickets.sessionStartsAt, count: sql<number>`count(*)::int` })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(eq(tickets.voided, false))
    .groupBy(tickets.eventId, events.title, tickets.sessionStartsAt)
    .orderBy(asc(tickets.sessionStartsAt), asc(events.title));
  return rows.map((r) => ({ ...r, startsAt: r.startsAt?.toISOString() ?? null, key: `${r.eventId}|${r.startsAt?.toISOString() ?? ""}` }));
}

/** What the door downloads to admit offline: codes, names, types and who is already in. */
export async function doorTicketList(db: Database, eventId: string, sessionStartsAt: string | null) {
  const start = sessionStartsAt ? new Date(sessionStartsAt) : null;
  const rows = await db
    .select({ code: tickets.code, name: tickets.holderName, seat: tickets.seatNumber, type: ticketOptions.type, checkedInAt: tickets.checkedInAt })
    .from(tickets)
    .leftJoin(ticketOptions, eq(ticketOptions.id, tickets.ticketOptionId))
    .where(
      and(
        eq(tickets.eventId, eventId),
        eq(tickets.voided, false),
        start && !Number.isNaN(start.getTime()) ? eq(tickets.sessionStartsAt, start) : sessionStartsAt === null ? undefined : isNull(tickets.sessionStartsAt),
      ),
    )
    .orderBy(asc(tickets.holderName));
  return rows.map((r) => ({ ...r, type: r.type ?? "Ticket", checkedInAt: r.checkedInAt?.toISOString() ?? null }));
}

/** Tickets admitted offline on two devices: the owner decides what happened. */
export async function checkInConflicts(db: Database, eventId?: string) {
  const rows = await db
    .select({ id: checkIns.id, code: checkIns.code, deviceId: checkIns.deviceId, scannedAt: checkIns.scannedAt, holderName: tickets.holderName, firstAt: tickets.checkedInAt, firstDevice: tickets.checkedInDevice })
    .from(checkIns)
    .innerJoin(tickets, eq(tickets.id, checkIns.ticketId))
    .where(and(eq(checkIns.outcome, "conflict"), eventId ? eq(tickets.eventId, eventId) : undefined))
    .orderBy(desc(checkIns.id))
    .limit(100);
  return rows.map((r) => ({ ...r, scannedAt: r.scannedAt.toISOString(), firstAt: r.firstAt?.toISOString() ?? null }));
}

export const ATTENDEES_PAGE_SIZE = 100;

/** An event's attendees: ticket holders with the buyer's contact details, searchable. */
export async function listAttendees(db: Database, eventId: string, q = "", limit: number | null = ATTENDEES_PAGE_SIZE) {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const query = db
    .select({
      code: tickets.code,
      seatNumber: tickets.seatNumber,
      name: tickets.holderName,
      email: orders.customerEmail,
      phone: orders.customerPhone,
      reference: orders.reference,
      ticketType: ticketOptions.type,
      sessionStartsAt: tickets.sessionStartsAt,
      checkedInAt: tickets.checkedInAt,
      voided: tickets.voided,
    })
    .from(tickets)
    .innerJoin(orders, eq(orders.id, tickets.orderId))
    .leftJoin(ticketOptions, eq(ticketOptions.id, tickets.ticketOptionId))
    .where(
      and(
        eq(tickets.eventId, eventId),
        q ? or(ilike(tickets.holderName, pattern), ilike(orders.customerEmail, pattern), ilike(orders.customerPhone, pattern), ilike(tickets.code, pattern), ilike(orders.reference, pattern)) : undefined,
      ),
    )
    .orderBy(asc(tickets.sessionStartsAt), asc(tickets.holderName), asc(tickets.seatNumber));
  const rows = await (limit === null ? query : query.limit(limit));
  return rows.map((r) => ({
    ...r,
    ticketType: r.ticketType ?? "Ticket",
    sessionStartsAt: r.sessionStartsAt?.toISOString() ?? null,
    checkedInAt: r.checkedInAt?.toISOString() ?? null,
  }));
}
