interface DailyPoint {
  day: string;
  visitors: number;
  pageViews: number;
}

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { top: 16, right: 12, bottom: 28, left: 40 };

const shortDate = (day: string) =>
  new Intl.DateTimeFormat("en-ZA", { day: "numeric", month: "short", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );

/**
 * Page views as bars and visitors as a line, drawn as inline SVG (no chart library in the bundle).
 * The numbers are also in a visually hidden table for screen readers.
 */
export function DailyChart({ points }: { points: DailyPoint[] }) {
  const max = Math.max(1, ...points.map((p) => Math.max(p.pageViews, p.visitors)));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const step = innerW / Math.max(1, points.length);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const x = (i: number) => PAD.left + i * step + step / 2;
  const line = points.map((p, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(p.visitors).toFixed(1)}`).join(" ");
  // Thin bars for a year of days, but never a slab for a single day.
  const barWidth = Math.min(32, Math.max(1, step * 0.7));
  const labelEvery = Math.max(1, Math.ceil(points.length / 6));
  return (
    <figure>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-auto w-full" role="img" aria-labelledby="daily-chart-title">
        <title id="daily-chart-title">Daily visitors and page views</title>
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line
              x1={PAD.left}
              x2={WIDTH - PAD.right}
              y1={y(max * f)}
              y2={y(max * f)}
              stroke="#1F1A17"
              strokeOpacity="0.12"
            />
            <text x={PAD.left - 6} y={y(max * f) + 4} textAnchor="end" fontSize="11" fill="#4A3F38">
              {Math.round(max * f)}
            </text>
          </g>
        ))}
        {points.map((p, i) => (
          <rect
            key={p.day}
            x={x(i) - barWidth / 2}
            y={y(p.pageViews)}
            width={barWidth}
            height={Math.max(0, PAD.top + innerH - y(p.pageViews))}
            fill="#F2B705"
          />
        ))}
        {points.length > 1 ? <path d={line} fill="none" stroke="#A3431F" strokeWidth="2.5" /> : null}
        {points.length === 1 ? <circle cx={x(0)} cy={y(points[0].visitors)} r="4" fill="#A3431F" /> : null}
        {points.map((p, i) =>
          i % labelEvery === 0 ? (
            <text key={p.day} x={x(i)} y={HEIGHT - 8} textAnchor="middle" fontSize="11" fill="#4A3F38">
              {shortDate(p.day)}
            </text>
          ) : null,
        )}
      </svg>
      {/* A figure's caption is its first or last child (HTML), so the table for screen readers comes before it. */}
      <table className="sr-only">
        <caption>Visitors and page views per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Visitors</th>
            <th scope="col">Page views</th>
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={p.day}>
              <td>{p.day}</td>
              <td>{p.visitors}</td>
              <td>{p.pageViews}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-sm text-ink-soft">
        <span className="inline-flex items-center gap-2">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm bg-honey" /> Page views
        </span>
        <span className="inline-flex items-center gap-2">
          <span aria-hidden="true" className="inline-block h-0.5 w-4 bg-accent" /> Visitors
        </span>
      </figcaption>
    </figure>
  );
}
