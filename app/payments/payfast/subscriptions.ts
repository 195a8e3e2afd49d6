/**
 * What the shop asks of a card subscription at its provider (PayFast's subscriptions API, or the
 * simulator's record of one). Amounts in cents, days as South African "YYYY-MM-DD".
 */
export interface SubscriptionState {
  token: string;
  /** ACTIVE is the only state that will charge; PayFast's other states are passed on as they come. */
  active: boolean;
  statusText: string;
  amountCents: number;
  /** The day the provider will charge next. */
  runDate: string;
}

export interface SubscriptionsApi {
  fetch(token: string): Promise<SubscriptionState>;
  cancel(token: string): Promise<void>;
  /** The amount of the next and later charges (a change of tier). */
  updateAmount(token: string, amountCents: number): Promise<void>;
  /** Moves the next charge to `day` (kept on or before paid-until, decision 115). */
  moveRunDate(token: string, day: string): Promise<void>;
  pause(token: string, cycles: number): Promise<void>;
  unpause(token: string): Promise<void>;
}

/** A notification of a charge or a cancel, verified, in the shop's terms. */
export interface CardNotification {
  /** PayFast's id of this one payment: the same charge notified twice has the same one. */
  paymentId: string;
  token: string;
  /** Our checkout order's id, which PayFast repeats on every charge of the subscription. */
  checkoutRef: string;
  status: "COMPLETE" | "CANCELLED" | "OTHER";
  amountCents: number;
  /** The fields as posted, for the record. */
  fields: Record<string, string>;
}

/** A subscription call that failed; `message` is safe to show. */
export class SubscriptionApiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "SubscriptionApiError";
  }
}

/** Rand with two decimals, as PayFast's forms and notifications carry amounts. */
export const randAmount = (cents: number) => (cents / 100).toFixed(2);

/** Cents from PayFast's "450.00" (or "-10.35"); null when it is no amount. */
export function centsFromRand(value: string): number | null {
  if (!/^-?\d{1,9}(\.\d{1,2})?$/.test(value.trim())) return null;
  return Math.round(Number(value) * 100);
}
