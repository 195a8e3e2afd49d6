// zod/mini: the checkout form runs this schema in the browser too (decision 060).
import * as z from "zod/mini";
import { isOneLine } from "~/lib/storable-text";

/** The form field, one per seat in seat order: `attendee` repeated, so a plain POST keeps the order. */
export const ATTENDEE_FIELD = "attendee";
export const ATTENDEE_NAME_MAX = 100;

/** One seat's holder as typed: empty means the buyer (filled in by `holderNames`). */
export const attendeeNameSchema = z
  .string()
  .check(
    z.trim(),
    z.maxLength(ATTENDEE_NAME_MAX, `A name must be at most ${ATTENDEE_NAME_MAX} characters.`),
    z.refine(isOneLine, "A name cannot contain line breaks or control characters."),
  );

/** The seats a checkout names: what each ticket line is called and how many seats it has. */
export interface SeatGroup {
  name: string;
  seats: number;
}

/** "Seat 1 of 2: Sip & Style": the label of each seat's field, in the order the fields are posted. */
export function seatLabels(groups: SeatGroup[]): string[] {
  return groups.flatMap((g) => Array.from({ length: g.seats }, (_, i) => `Seat ${i + 1} of ${g.seats}: ${g.name}`));
}

export type AttendeeCheck =
  { ok: true; names: string[] } | { ok: false; names: string[]; errors: (string | null)[]; message: string };

/**
 * The names typed for `seats` seats (fields beyond them are ignored: the one-item form offers a field for
 * every seat it could sell), trimmed and checked, with a message per bad field for the page and one
 * naming the first for the toast.
 */
export function checkAttendees(typed: readonly string[], seats: number, labels: readonly string[] = []): AttendeeCheck {
  const names = Array.from({ length: seats }, (_, i) => typed[i] ?? "");
  const errors = names.map((name) => {
    const parsed = attendeeNameSchema.safeParse(name);
    return parsed.success ? null : (parsed.error.issues[0]?.message ?? "Please check this name.");
  });
  const first = errors.findIndex((e) => e !== null);
  if (first === -1) return { ok: true, names: names.map((n) => n.trim()) };
  const label = labels[first] ?? `Seat ${first + 1}`;
  return { ok: false, names, errors, message: `${label}: ${errors[first]}` };
}

/** Each seat's holder: the name typed for it, or the buyer's when left empty. */
export const holderNames = (names: readonly string[], buyer: string): string[] =>
  names.map((name) => name.trim() || buyer);
