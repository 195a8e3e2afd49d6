import type { ReactNode } from "react";

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Shown as the card's title on phones instead of as a labelled line. */
  primary?: boolean;
  /** A thumbnail: beside the title on phones, without a label. */
  media?: boolean;
  className?: string;
}

/**
 * A table from 768 px, a stack of cards below it: the same rows either way, and no sideways
 * scrolling on a phone. Only one of the two is displayed, so assistive technology meets one.
 */
export function DataList<Row>({
  rows,
  columns,
  rowKey,
  caption,
  empty,
}: {
  rows: Row[];
  columns: Column<Row>[];
  rowKey: (row: Row) => string | number;
  caption: string;
  empty: ReactNode;
}) {
  if (!rows.length) return <p className="text-ink-soft">{empty}</p>;
  const primary = columns.find((c) => c.primary) ?? columns[0];
  const media = columns.find((c) => c.media);
  return (
    <>
      <table className="hidden w-full text-left text-sm md:table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className="border-b border-ink/10 px-3 py-2 font-semibold">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.header} className={`border-b border-ink/5 px-3 py-2 align-middle ${c.className ?? ""}`}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="space-y-3 md:hidden" aria-label={caption}>
        {rows.map((row) => (
          <li key={rowKey(row)} className="card flex gap-3 p-4">
            {media ? <div className="shrink-0">{media.cell(row)}</div> : null}
            <div className="min-w-0 flex-1">
              <div className="font-semibold">{primary.cell(row)}</div>
              <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
                {columns
                  .filter((c) => c !== primary && c !== media)
                  .map((c) => (
                    <div key={c.header} className="contents">
                      <dt className="text-ink-soft">{c.header}</dt>
                      <dd className="min-w-0 break-words">{c.cell(row)}</dd>
                    </div>
                  ))}
              </dl>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
