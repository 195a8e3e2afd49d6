/**
 * How many seats one checkout buys for a ticket or workshop (decision 106): shared by the form's
 * select and the action. Three is the most one buyer may hold unpaid (holds.server.ts).
 */
export const MAX_SEATS_PER_CHECKOUT = 3;

export const SEATS_PROBLEM = `Please choose from 1 to ${MAX_SEATS_PER_CHECKOUT} seats.`;

export const sellsSeats = (orderType: string | null | undefined) => orderType === "ticket" || orderType === "workshop";

/** The seats asked for: 1 when the form has no choice (every other kind of item), null when the choice is not one we offer. */
export function seatsFromForm(orderType: string, value: string): number | null {
  if (!sellsSeats(orderType) || value === "") return 1;
  if (!/^[1-9]$/.test(value)) return null;
  const seats = Number(value);
  return seats <= MAX_SEATS_PER_CHECKOUT ? seats : null;
}
