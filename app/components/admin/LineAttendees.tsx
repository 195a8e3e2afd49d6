/** A ticket line's holders, seat by seat, under the line on the owner's order page (issue 39). */
export function LineAttendees({ names }: { names: string[] }) {
  if (!names.length) return null;
  return (
    <ol className="mt-1 mb-2 list-none space-y-0.5 pl-4 text-sm text-ink-soft" aria-label="Attendees">
      {names.map((name, i) => (
        <li key={i} className="[overflow-wrap:anywhere]">
          Seat {i + 1} of {names.length}: {name}
        </li>
      ))}
    </ol>
  );
}
