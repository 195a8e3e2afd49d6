import { z } from "zod/mini";

/** "18:04": an instant's wall-clock time in South Africa (UTC+2 all year), without loading Intl's zone data on the phone. */
export function saClock(iso: string): string {
  const at = new Date(new Date(iso).getTime() + 2 * 3_600_000);
  return `${String(at.getUTCHours()).padStart(2, "0")}:${String(at.getUTCMinutes()).padStart(2, "0")}`;
}

export type DoorOutcome = "admitted" | "already" | "invalid" | "conflict";

export interface DoorResult {
  outcome: DoorOutcome;
  holderName?: string;
  ticketType?: string;
  checkedInAt?: string;
  offline?: boolean;
}

/** The words on the big panel. */
export function doorMessage(result: DoorResult): string {
  switch (result.outcome) {
    case "admitted":
      return `Admitted: ${result.holderName ?? "guest"}, ${result.ticketType ?? "ticket"}${result.offline ? " (offline, will sync)" : ""}`;
    case "already":
      return result.checkedInAt ? `Already checked in at ${saClock(result.checkedInAt)}` : "Already checked in";
    case "conflict":
      return `Conflict: ${result.holderName ?? "this ticket"} was already admitted on another device`;
    case "invalid":
      return "Not a valid ticket";
  }
}

const deviceId = z.string().check(z.minLength(1), z.maxLength(64), z.regex(/^[A-Za-z0-9_-]+$/));
/** No control characters: a ticket code never has one, and Postgres text cannot hold NUL. */
// eslint-disable-next-line no-control-regex
const printable = z.regex(/^[^\u0000-\u001f\u007f]*$/);
const code = z.string().check(z.minLength(1), z.maxLength(300), printable);

/** The door's JSON requests: one schema, shared by the page's script and the endpoint. */
export const doorRequestSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("scan"), deviceId, code, eventId: z.optional(z.string().check(z.maxLength(100), printable)) }),
  z.object({ intent: z.literal("undo"), deviceId }),
  z.object({
    intent: z.literal("sync"),
    deviceId,
    scans: z
      .array(z.object({ clientScanId: z.string().check(z.minLength(1), z.maxLength(64), printable), code, scannedAt: z.string().check(z.maxLength(40)) }))
      .check(z.maxLength(500)),
  }),
]);
export type DoorRequest = z.infer<typeof doorRequestSchema>;
