import { SA_OFFSET_MS, saDay } from "~/analytics/days";
import { dayMonthYear } from "~/lib/dates-in-words";
import type { RecordSection } from "~/privacy/personal-records.server";

const LONG = 200;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** "10 September 2025, 10:00" in South African time (the download keeps the exact ISO instant). */
function inWords(iso: string): string {
  const at = new Date(iso);
  const local = new Date(at.getTime() + SA_OFFSET_MS);
  const time = `${String(local.getUTCHours()).padStart(2, "0")}:${String(local.getUTCMinutes()).padStart(2, "0")}`;
  return `${dayMonthYear(saDay(at))}, ${time}`;
}

function Value({ value }: { value: string | number | boolean | null }) {
  if (value === null || value === "") return <span className="text-ink-soft">—</span>;
  if (typeof value === "boolean") return <>{value ? "Yes" : "No"}</>;
  const text = String(value);
  if (INSTANT.test(text)) return <time dateTime={text}>{inWords(text)}</time>;
  if (text.length <= LONG) return <>{text}</>;
  return (
    <details>
      <summary className="min-h-11 cursor-pointer py-2">{`${text.slice(0, 80)}…`}</summary>
      <p className="whitespace-pre-wrap">{text}</p>
    </details>
  );
}

/** Every record the shop holds for a person, section by section, each value as stored. */
export function RecordSections({ sections }: { sections: RecordSection[] }) {
  return (
    <div className="mt-8 space-y-8">
      {sections.map((section) => (
        <section key={section.key} aria-labelledby={`records-${section.key}`}>
          <h2 id={`records-${section.key}`} className="text-2xl font-semibold">
            {section.title} <span className="text-base font-normal text-ink-soft">({section.records.length})</span>
          </h2>
          <p className="mt-1 text-ink-soft">{section.about}</p>
          {section.records.length === 0 ? (
            <p className="mt-2">Nothing.</p>
          ) : (
            <ul className="mt-3 space-y-3">
              {section.records.map((record, index) => (
                <li key={index} className="rounded-xl border border-ink/15 bg-white p-4">
                  <dl className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[minmax(7rem,max-content)_1fr]">
                    {Object.entries(record).map(([label, value]) => (
                      <div key={label} className="contents">
                        <dt className="font-semibold">{label}</dt>
                        <dd className="mb-2 min-w-0 break-words sm:mb-0">
                          <Value value={value} />
                        </dd>
                      </div>
                    ))}
                  </dl>
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}
