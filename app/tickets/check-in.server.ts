import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { TransactionRollbackError } from "drizzle-orm/errors";
import type { Database } from "~/db/client.server";
import { checkIns, events, ticketOptions, tickets } from "~/db/schema";
import { normaliseTicketCode, TICKET_CODE_PATTERN } from "./codes";
import { parseShortCode } from "./short-code";

export type ScanOutcome = "admitted" | "already" | "invalid" | "conflict" | "refunded" | "other-event" | "stale";

export interface ScanResult {
  outcome: ScanOutcome;
  holderName?: string;
  ticketType?: string;
  /** When it was admitted (the first admission for "already" and "conflict"). */
  checkedInAt?: string;
  /** "already": whether the device asking is the one that admitted it. */
  byThisDevice?: boolean;
  /** "refunded": when the refund cancelled it. */
  voidedAt?: string;
  /** "other-event": the event the ticket is for. */
  eventTitle?: string;
}

type TicketRow = typeof tickets.$inferSelect;
interface FoundTicket {
  ticket: TicketRow;
  type: string | null;
  eventTitle: string;
}

/**
 * The ticket a typed or scanned code names: the 24-character code (or the ticket URL holding it), or
 * the door's short code, looked up in this door's event first and then in any other.
 */
async function findTicket(
  db: Pick<Database, "select">,
  input: string,
  eventId?: string,
): Promise<FoundTicket | undefined> {
  const query = () =>
    db
      .select({ ticket: tickets, type: ticketOptions.type, eventTitle: events.title })
      .from(tickets)
      .innerJoin(events, eq(events.id, tickets.eventId))
      .leftJoin(ticketOptions, eq(ticketOptions.id, tickets.ticketOptionId));
  const code = normaliseTicketCode(input);
  if (TICKET_CODE_PATTERN.test(code)) {
    const [exact] = await query().where(eq(tickets.code, code)).limit(1);
    if (exact || !eventId) return exact;
    // Typed by hand with a capital wrong: within this door's event, one ticket that differs only in case is the one meant.
    const loose = await query()
      .where(and(eq(tickets.eventId, eventId), sql`lower(${tickets.code}) = ${code.toLowerCase()}`))
      .limit(2);
    return loose.length === 1 ? loose[0] : undefined;
  }
  const short = parseShortCode(input);
  if (!short) return undefined;
  const [here] = eventId
    ? await query()
        .where(and(eq(tickets.eventId, eventId), eq(tickets.shortCode, short)))
        .limit(1)
    : [];
  return here ?? (await query().where(eq(tickets.shortCode, short)).orderBy(desc(tickets.id)).limit(1))[0];
}

const typeOf = (row: { type: string | null } | undefined) => row?.type ?? "Ticket";

/**
 * Admits a ticket at the door, or says in words why not. One conditional update decides: of any
 * number of devices scanning the same code at once, exactly one sees a row come back, and every
 * other sees "already".
 */
export async function checkInByCode(
  db: Database,
  input: { code: string; deviceId: string; now: Date; eventId?: string },
): Promise<ScanResult> {
  const found = input.code.length <= 300 ? await findTicket(db, input.code, input.eventId) : undefined;
  if (!found) {
    await recordScan(db, null, input.code.trim().slice(0, 100), input.deviceId, input.now, "invalid");
    return { outcome: "invalid" };
  }
  const { ticket } = found;
  const who = { holderName: ticket.holderName, ticketType: typeOf(found) };
  if (input.eventId && ticket.eventId !== input.eventId) {
    await recordScan(db, ticket, ticket.code, input.deviceId, input.now, "other-event");
    return { outcome: "other-event", ...who, eventTitle: found.eventTitle };
  }
  const [admitted] = ticket.voided
    ? []
    : await db
        .update(tickets)
        .set({ checkedInAt: input.now, checkedInDevice: input.deviceId })
        .where(and(eq(tickets.id, ticket.id), isNull(tickets.checkedInAt), eq(tickets.voided, false)))
        .returning();
  if (admitted) {
    await recordScan(db, admitted, admitted.code, input.deviceId, input.now, "admitted");
    return { outcome: "admitted", ...who, checkedInAt: admitted.checkedInAt!.toISOString() };
  }
  const [now] = await db.select().from(tickets).where(eq(tickets.id, ticket.id));
  if (!now || now.voided) {
    await recordScan(db, ticket, ticket.code, input.deviceId, input.now, "refunded");
    return { outcome: "refunded", ...who, voidedAt: (now?.voidedAt ?? input.now).toISOString() };
  }
  await recordScan(db, now, now.code, input.deviceId, input.now, "already");
  return {
    outcome: "already",
    ...who,
    checkedInAt: now.checkedInAt?.toISOString(),
    byThisDevice: now.checkedInDevice === input.deviceId,
  };
}

async function recordScan(
  db: Pick<Database, "insert">,
  ticket: TicketRow | null,
  code: string,
  deviceId: string,
  at: Date,
  outcome: ScanOutcome | "undone",
  offline?: { clientScanId: string; deviceClockSkewMs: number },
) {
  return db
    .insert(checkIns)
    .values({
      ticketId: ticket?.id ?? null,
      code,
      deviceId,
      scannedAt: at,
      outcome,
      offline: Boolean(offline),
      clientScanId: offline?.clientScanId ?? null,
      deviceClockSkewMs: offline?.deviceClockSkewMs ?? null,
    })
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
      .where(
        and(
          eq(checkIns.deviceId, deviceId),
          eq(checkIns.outcome, "admitted"),
          eq(tickets.checkedInDevice, deviceId),
          isNotNull(tickets.checkedInAt),
        ),
      )
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

/** How far back a synced offline scan may lie, once the device's clock is corrected: a door's evening and a night without signal. */
export const OFFLINE_SCAN_WINDOW_MS = 24 * 3_600_000;

/**
 * A device's queued offline admissions, for the event whose list it downloaded. The device's clock is
 * not trusted: it sends its own "now" with the batch, the difference from the server's is recorded as
 * its skew, and each scan's time is corrected by it. A scan that then lies outside the last
 * OFFLINE_SCAN_WINDOW_MS (or a ticket of another event) admits nobody.
 *
 * Each scan is stored once per (device, client scan id), so a repeated sync changes nothing and
 * answers what it answered before. A ticket another device had already admitted becomes a "conflict"
 * the owner sees: the person was let in twice.
 */
export async function syncOfflineScans(
  db: Database,
  batch: { deviceId: string; eventId: string; deviceNow: string; scans: OfflineScan[] },
  now: Date,
): Promise<SyncedScan[]> {
  const { deviceId } = batch;
  const deviceNow = Date.parse(batch.deviceNow);
  // A device that sends no readable clock is taken at its word for each scan, still bounded by the window.
  const deviceClockSkewMs = Number.isNaN(deviceNow) ? 0 : deviceNow - now.getTime();
  const results: SyncedScan[] = [];
  for (const scan of batch.scans) {
    const [seen] = await db
      .select({ outcome: checkIns.outcome, holderName: tickets.holderName })
      .from(checkIns)
      .leftJoin(tickets, eq(tickets.id, checkIns.ticketId))
      .where(and(eq(checkIns.deviceId, deviceId), eq(checkIns.clientScanId, scan.clientScanId)));
    if (seen) {
      results.push({
        clientScanId: scan.clientScanId,
        outcome: seen.outcome as ScanOutcome,
        holderName: seen.holderName ?? undefined,
      });
      continue;
    }
    const corrected = Date.parse(scan.scannedAt) - deviceClockSkewMs;
    // Never later than the server's now; never before the window (a bad or forged time admits nobody).
    const at = new Date(Math.min(corrected, now.getTime()));
    const inWindow = !Number.isNaN(corrected) && corrected >= now.getTime() - OFFLINE_SCAN_WINDOW_MS;
    const found = await findTicket(db, scan.code, batch.eventId);
    const offline = { clientScanId: scan.clientScanId, deviceClockSkewMs };
    const result = await db
      .transaction(async (tx) => {
        let outcome: ScanOutcome;
        let ticket: TicketRow | null = found?.ticket ?? null;
        if (!ticket) outcome = "invalid";
        else if (ticket.eventId !== batch.eventId) outcome = "other-event";
        else if (!inWindow) outcome = "stale";
        else {
          const [admitted] = await tx
            .update(tickets)
            .set({ checkedInAt: at, checkedInDevice: deviceId })
            .where(and(eq(tickets.id, ticket.id), isNull(tickets.checkedInAt), eq(tickets.voided, false)))
            .returning();
          if (admitted) outcome = "admitted";
          else {
            [ticket] = await tx.select().from(tickets).where(eq(tickets.id, ticket.id));
            outcome =
              !ticket || ticket.voided ? "refunded" : ticket.checkedInDevice === deviceId ? "already" : "conflict";
          }
        }
        const stored = await recordScan(
          tx,
          ticket,
          ticket?.code ?? scan.code.trim().slice(0, 100),
          deviceId,
          Number.isNaN(at.getTime()) ? now : at,
          outcome,
          offline,
        );
        // A concurrent sync of the same scan stored it first: undo this admission and answer as it did.
        if (!stored.length) tx.rollback();
        return { clientScanId: scan.clientScanId, outcome, holderName: ticket?.holderName };
      })
      .catch(async (error: unknown) => {
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
