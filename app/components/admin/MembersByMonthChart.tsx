interface MonthPoint {
  month: string;
  joined: number;
  renewed: number;
  lapsed: number;
}

// A narrow drawing, so its labels stay readable at phone width; it is kept from growing on a laptop.
const WIDTH = 420;
const HEIGHT = 200;
const PAD = { top: 14, right: 6, bottom: 26, left: 30 };
const SERIES = [
  { key: "joined", label: "Joined", fill: "#F2B705", swatch: "bg-honey" },
  { key: "renewed", label: "Renewed", fill: "#A3431F", swatch: "bg-accent" },
  { key: "lapsed", label: "Lapsed", fill: "#4A3F38", swatch: "bg-ink-soft" },
] as const;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "Mar" for "2025-03"; January shows its year so a year's turn is plain. */
const monthLabel = (month: string) => {
  const [year, m] = month.split("-").map(Number) as [number, number];
  return m === 1 ? `Jan ${String(year).slice(2)}` : MONTHS[m - 1]!;
};
const monthInWords = (month: string) => {
  const [year, m] = month.split("-").map(Number) as [number, number];
  return `${MONTHS[m - 1]} ${year}`;
};

/**
 * Members joined, renewed and lapsed per month as grouped bars in inline SVG (no chart library), with
 * the same numbers in a visually hidden table for screen readers.
 */
export function MembersByMonthChart({ months }: { months: MonthPoint[] }) {
  const max = Math.max(1, ...months.flatMap((m) => [m.joined, m.renewed, m.lapsed]));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const step = innerW / Math.max(1, months.length);
  const bar = Math.min(14, (step * 0.8) / SERIES.length);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  // Whole members only on the axis: no half-member tick when the largest count is 1.
  const ticks = [...new Set([0, Math.round(max / 2), max])];
  return (
    <figure>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-auto w-full max-w-2xl"
        role="img"
        aria-labelledby="members-chart-title"
      >
        <title id="members-chart-title">Members joined, renewed and lapsed per month</title>
        {ticks.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(v)} y2={y(v)} stroke="#1F1A17" strokeOpacity="0.12" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize="12" fill="#4A3F38">
              {v}
            </text>
          </g>
        ))}
        {months.map((m, i) => {
          const left = PAD.left + i * step + (step - bar * SERIES.length) / 2;
          return (
            <g key={m.month}>
              {SERIES.map((s, j) => (
                <rect
                  key={s.key}
                  x={left + j * bar}
                  y={y(m[s.key])}
                  width={bar}
                  height={Math.max(0, PAD.top + innerH - y(m[s.key]))}
                  fill={s.fill}
                />
              ))}
              <text x={PAD.left + i * step + step / 2} y={HEIGHT - 8} textAnchor="middle" fontSize="11" fill="#4A3F38">
                {monthLabel(m.month)}
              </text>
            </g>
          );
        })}
      </svg>
      {/* A figure's caption is its first or last child (HTML), so the table for screen readers comes before it. */}
      <table className="sr-only">
        <caption>Members joined, renewed and lapsed per month</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            {SERIES.map((s) => (
              <th key={s.key} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {months.map((m) => (
            <tr key={m.month}>
              <th scope="row">{monthInWords(m.month)}</th>
              <td>{m.joined}</td>
              <td>{m.renewed}</td>
              <td>{m.lapsed}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-sm text-ink-soft">
        {SERIES.map((s) => (
          <span key={s.key} className="inline-flex items-center gap-2">
            <span aria-hidden="true" className={`inline-block h-3 w-3 rounded-sm ${s.swatch}`} /> {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
