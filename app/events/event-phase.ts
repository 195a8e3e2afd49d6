/** Whether an event is over at `now`: it has ended (or, with no end, started). Undated events never are. */
export function isPast(event: { startsAt: Date | null; endsAt: Date | null }, now: Date): boolean {
  const end = event.endsAt ?? event.startsAt;
  return end !== null && end.getTime() <= now.getTime();
}

/** Whether tickets can still be bought at all: not once the event has started (as checkout rules). */
export function hasStarted(event: { startsAt: Date | null }, now: Date): boolean {
  return event.startsAt !== null && event.startsAt.getTime() <= now.getTime();
}
