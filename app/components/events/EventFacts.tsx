export interface EventFactsData {
  dates: string;
  timeText: string | null;
  location: string;
  participants: string;
  priceText: string;
  focus: string;
}

/** The facts every event shows, on the listing card and on its own page: one list, one order. */
export function EventFacts({ event, className }: { event: EventFactsData; className: string }) {
  const facts: [string, string][] = [
    ["Date", event.dates],
    ["Time", event.timeText ?? "To be announced"],
    ["Location", event.location],
    ["Participants", event.participants],
    ["Price", event.priceText],
    ["Focus", event.focus],
  ];
  return (
    <dl className={`grid grid-cols-[auto_1fr] gap-x-4 ${className}`}>
      {facts.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-semibold">{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
