import { z } from "zod/mini";
import { parseShortCode } from "./short-code";

const SA_OFFSET_MS = 2 * 3_600_000;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "18:04": an instant's wall-clock time in South Africa (UTC+2 all year), without loading Intl's zone data on the phone. */
export function saClock(iso: string): string {
  const at = new Date(new Date(iso).getTime() + SA_OFFSET_MS);
  return `${String(at.getUTCHours()).padStart(2, "0")}:${String(at.getUTCMinutes()).padStart(2, "0")}`;
}

/** "26 Nov": an instant's South African date, short enough for the door's panel. */
export function saDay(iso: string): string {
  const at = new Date(new Date(iso).getTime() + SA_OFFSET_MS);
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]}`;
}

export type DoorOutcome = "admitted" | "already" | "invalid" | "conflict" | "refunded" | "other-event" | "stale";

export interface DoorResult {
  outcome: DoorOutcome;
  holderName?: string;
  ticketType?: string;
  checkedInAt?: string;
  byThisDevice?: boolean;
  voidedAt?: string;
  eventTitle?: string;
  offline?: boolean;
}

/** One ticket in the list the door keeps for offline check-in and searches as the owner types. */
export interface DoorTicket {
  code: string;
  shortCode: string;
  name: string;
  email: string;
  reference: string;
  type: string;
  /** The session it is for (null for an event without sessions). */
  session: string | null;
  checkedInAt: string | null;
  checkedInDevice: string | null;
  /** Set when a refund cancelled it. */
  voidedAt: string | null;
}

/** A ticket of another event still to come: enough to say whose it is not. */
export interface DoorOtherTicket {
  code: string;
  shortCode: string;
  eventTitle: string;
}

/** The words on the big panel: every refusal says why. */
export function doorMessage(result: DoorResult): string {
  switch (result.outcome) {
    case "admitted":
      return `Admitted: ${result.holderName ?? "guest"}, ${result.ticketType ?? "ticket"}${result.offline ? " (offline, will sync)" : ""}`;
    case "already": {
      const by = result.byThisDevice === undefined ? "" : result.byThisDevice ? " by this phone" : " by another phone";
      return result.checkedInAt
        ? `Already checked in at ${saClock(result.checkedInAt)}${by}`
        : `Already checked in${by}`;
    }
    case "refunded":
      return result.voidedAt ? `Refunded on ${saDay(result.voidedAt)} — do not admit` : "Refunded — do not admit";
    case "other-event":
      return `Ticket for ${result.eventTitle ?? "another event"}, not this event`;
    case "conflict":
      return `Conflict: ${result.holderName ?? "this ticket"} was already admitted on another device`;
    case "stale":
      return "Scanned offline too long ago to count";
    case "invalid":
      return "Not a ticket of this shop";
  }
}

/** A 24-character code, a ticket URL, or a door code: what the door admits by, rather than searches for. */
export function looksLikeTicketCode(input: string): boolean {
  const trimmed = input.trim();
  return (
    /^[A-Za-z0-9_-]{24}$/.test(trimmed) ||
    /\/ticket\/[A-Za-z0-9_-]+\/?$/.test(trimmed) ||
    parseShortCode(trimmed) !== null
  );
}

/** The bare code inside a scanned ticket URL, or what was typed. */
export const bareCode = (input: string) =>
  input
    .trim()
    .replace(/^.*\/ticket\//, "")
    .replace(/\/$/, "");

/** Search as the owner types: two characters of a name, an email, an order reference or a door code. */
export function matchDoorTickets(list: DoorTicket[], query: string, limit = 20): DoorTicket[] {
  const q = query.trim().toLowerCase();
  if (q.length < 2) return [];
  const compact = q.replace(/[\s-]/g, "");
  return list
    .filter(
      (t) =>
        t.name.toLowerCase().includes(q) ||
        t.email.toLowerCase().includes(q) ||
        t.reference.toLowerCase().includes(q) ||
        (compact.length >= 2 && t.shortCode.toLowerCase().includes(compact)),
    )
    .slice(0, limit);
}

const onlyOne = <T>(items: T[]): T | undefined => (items.length === 1 ? items[0] : undefined);

/**
 * The answer the saved list gives for a code when the server cannot be reached: the same words as
 * online. `deviceId` tells "by this phone" from "by another phone".
 */
export function answerFromList(
  list: DoorTicket[],
  others: DoorOtherTicket[],
  input: string,
  deviceId: string,
): { result: DoorResult; ticket?: DoorTicket } {
  const code = bareCode(input);
  const short = parseShortCode(input);
  const ticket =
    list.find((t) => t.code === code || (short !== null && t.shortCode === short)) ??
    // A 24-character code typed with a capital wrong, as the server reads it within the event.
    (code.length === 24 ? onlyOne(list.filter((t) => t.code.toLowerCase() === code.toLowerCase())) : undefined);
  if (!ticket) {
    const other = others.find((t) => t.code === code || (short !== null && t.shortCode === short));
    return {
      result: other
        ? { outcome: "other-event", eventTitle: other.eventTitle, offline: true }
        : { outcome: "invalid", offline: true },
    };
  }
  const who = { holderName: ticket.name, ticketType: ticket.type, offline: true };
  if (ticket.voidedAt) return { result: { outcome: "refunded", voidedAt: ticket.voidedAt, ...who }, ticket };
  if (ticket.checkedInAt)
    return {
      result: {
        outcome: "already",
        checkedInAt: ticket.checkedInAt,
        byThisDevice: ticket.checkedInDevice === deviceId,
        ...who,
      },
      ticket,
    };
  return { result: { outcome: "admitted", ...who }, ticket };
}

/** "23 of 40 checked in" for one session, from the saved list (refunded tickets are not counted). */
export function countsOf(list: DoorTicket[], session: string | null) {
  const here = list.filter((t) => t.session === session && !t.voidedAt);
  return { checkedIn: here.filter((t) => t.checkedInAt).length, total: here.length };
}

const deviceId = z.string().check(z.minLength(1), z.maxLength(64), z.regex(/^[A-Za-z0-9_-]+$/));
/** No control characters: a ticket code never has one, and Postgres text cannot hold NUL. */
// eslint-disable-next-line no-control-regex
const printable = z.regex(/^[^\u0000-\u001f\u007f]*$/);
const code = z.string().check(z.minLength(1), z.maxLength(300), printable);
const eventId = z.string().check(z.minLength(1), z.maxLength(100), printable);
const instant = z.string().check(z.maxLength(40));

/** The door's JSON requests: one schema, shared by the page's script and the endpoint. */
export const doorRequestSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("scan"),
    deviceId,
    code,
    eventId: z.optional(z.string().check(z.maxLength(100), printable)),
  }),
  z.object({ intent: z.literal("undo"), deviceId }),
  z.object({
    intent: z.literal("sync"),
    deviceId,
    /** The event whose list the device admitted from: a scan of any other event's ticket admits nobody. */
    eventId,
    /** The device's clock when it sent the batch: the server records the skew and corrects each scan by it. */
    deviceNow: instant,
    scans: z
      .array(
        z.object({
          clientScanId: z.string().check(z.minLength(1), z.maxLength(64), printable),
          code,
          scannedAt: instant,
        }),
      )
      .check(z.maxLength(500)),
  }),
]);
export type DoorRequest = z.infer<typeof doorRequestSchema>;
