/** The money of one order line, in integer cents: what it cost, and what returning some of its units gives back. */

export type LineMoney = { unitPriceCents: number; quantity: number; discountCents: number };

/** What the buyer was charged for a line: its list price times its quantity, less its discount. */
export function lineChargedCents(line: LineMoney): number {
  return line.unitPriceCents * line.quantity - line.discountCents;
}

/**
 * What returning `units` more units of a line gives back, after `returnedBefore` units were returned. The charge
 * is spread evenly over the units and the odd cents fall to the later units, so returning every unit, in any
 * steps, gives back exactly what was charged: never a cent more, never a cent less.
 */
export function unitsRefundCents(line: LineMoney, returnedBefore: number, units: number): number {
  if (units < 0 || returnedBefore < 0 || returnedBefore + units > line.quantity) {
    throw new RangeError(`Cannot return ${units} of ${line.quantity - returnedBefore} units left.`);
  }
  const charged = lineChargedCents(line);
  const upTo = (n: number) => Math.floor((charged * n) / line.quantity);
  return upTo(returnedBefore + units) - upTo(returnedBefore);
}
