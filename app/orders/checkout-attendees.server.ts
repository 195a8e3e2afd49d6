import { ATTENDEE_FIELD, checkAttendees, holderNames, seatLabels, type SeatGroup } from "~/tickets/attendees";
import {
  checkoutErrorToast,
  type CheckoutActionResult,
  type CheckoutCustomer,
  type CheckoutValues,
} from "./checkout-schema";
import { sellsSeats } from "./checkout-seats";
import type { Sellable } from "./sellable.server";

/** The attendee names as posted, one per seat field, in seat order. */
export function typedAttendees(form: FormData): string[] {
  return form
    .getAll(ATTENDEE_FIELD)
    .slice(0, 50)
    .map((v) => (typeof v === "string" ? v : ""));
}

export interface TypedSeats {
  attendees: string[];
  seats: string;
}

/** The posted names (and seats chosen) of a request, read from a copy so the action can still read the form itself. */
export async function attendeesOfRequest(request: Request): Promise<TypedSeats> {
  try {
    const form = await request.clone().formData();
    const seats = form.get("seats");
    return { attendees: typedAttendees(form), seats: typeof seats === "string" ? seats.slice(0, 2) : "" };
  } catch {
    return { attendees: [], seats: "" };
  }
}

/**
 * A refusal keeps the names typed and the seats chosen, so the page shows them again (a refused hold, a
 * missing field) also without JavaScript, where the page is drawn anew.
 */
export const keepAttendees = <R extends CheckoutActionResult>(result: R, typed: TypedSeats): R => ({
  ...result,
  attendees: result.attendees ?? typed.attendees,
  seats: typed.seats || undefined,
});

/** The ticket lines of a checkout as the form names their seats, in the order the fields are posted. */
export const seatGroupsOf = (lines: { item: Pick<Sellable, "orderType" | "displayName">; quantity: number }[]) =>
  lines
    .filter((l) => sellsSeats(l.item.orderType))
    .map((l): SeatGroup => ({ name: l.item.displayName, seats: l.quantity }));

const buyerName = (customer: CheckoutCustomer) => `${customer.firstName} ${customer.lastName}`.trim();

/**
 * Each ticket line's holder per seat, from the names typed for the checkout's seats (empty ones are the
 * buyer's), or the refusal to answer with: the toast names the first bad seat, and each bad field says why.
 */
export function attendeesForLines<L extends { item: Pick<Sellable, "orderType" | "displayName">; quantity: number }>(
  form: FormData,
  lines: L[],
  customer: CheckoutCustomer,
):
  | { ok: true; lines: (L & { attendeeNames?: string[] })[] }
  | { ok: false; message: string; attendees: string[]; attendeeErrors: (string | null)[] } {
  const typed = typedAttendees(form);
  const groups = seatGroupsOf(lines);
  const seats = groups.reduce((n, g) => n + g.seats, 0);
  const checked = checkAttendees(typed, seats, seatLabels(groups));
  if (!checked.ok) return { ok: false, message: checked.message, attendees: typed, attendeeErrors: checked.errors };
  const names = holderNames(checked.names, buyerName(customer));
  let next = 0;
  return {
    ok: true,
    lines: lines.map((line) => {
      if (!sellsSeats(line.item.orderType)) return line;
      const attendeeNames = names.slice(next, next + line.quantity);
      next += line.quantity;
      return { ...line, attendeeNames };
    }),
  };
}

/** The checkout's answer when a seat's name was refused: the toast names the seat, each field keeps what was typed. */
export function attendeesRefusal(
  named: { message: string; attendees: string[]; attendeeErrors: (string | null)[] },
  values: CheckoutValues,
): CheckoutActionResult {
  return {
    ok: false,
    toast: checkoutErrorToast(named.message),
    values,
    attendees: named.attendees,
    attendeeErrors: named.attendeeErrors,
  };
}
