import { dayMonthInSouthAfrica } from "~/lib/dates-in-words";

/** Whether one ticket option can be bought right now. Pure, so the ticket page and checkout share it. */
export type TicketAvailability =
  | { status: "available" }
  | { status: "not-yet"; availableFrom: Date; label: string }
  | { status: "closed"; label: string }
  | { status: "event-over"; label: string };

export interface TicketOptionTiming {
  availableFrom: Date | null;
  availableUntil: Date | null;
}

export interface EventTiming {
  startsAt: Date | null;
}

export function ticketAvailability(option: TicketOptionTiming, event: EventTiming, now: Date): TicketAvailability {
  const t = now.getTime();
  if (event.startsAt && t >= event.startsAt.getTime())
    return { status: "event-over", label: "This event has taken place" };
  if (option.availableUntil && t >= option.availableUntil.getTime()) return { status: "closed", label: "Sales closed" };
  if (option.availableFrom && t < option.availableFrom.getTime()) {
    return {
      status: "not-yet",
      availableFrom: option.availableFrom,
      label: `Available from ${dayMonthInSouthAfrica(option.availableFrom)}`,
    };
  }
  return { status: "available" };
}

export function isOnSale(option: TicketOptionTiming, event: EventTiming, now: Date): boolean {
  return ticketAvailability(option, event, now).status === "available";
}
