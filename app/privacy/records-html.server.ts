import { escapeHtml } from "~/email/layout.server";
import type { PersonalRecords } from "./personal-records.server";

const value = (v: string | number | boolean | null) =>
  v === null || v === "" ? "—" : typeof v === "boolean" ? (v ? "Yes" : "No") : String(v);

/**
 * The download as a web page that opens anywhere, offline, with no script and no request to the shop:
 * every section and record, each value escaped.
 */
export function personalRecordsHtml(records: PersonalRecords, shopName: string): string {
  const sections = records.sections
    .map((section) => {
      const body = section.records.length
        ? section.records
            .map(
              (record) =>
                `<dl>${Object.entries(record)
                  .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(value(v))}</dd>`)
                  .join("")}</dl>`,
            )
            .join("\n")
        : "<p>Nothing.</p>";
      return `<section><h2>${escapeHtml(section.title)}</h2><p>${escapeHtml(section.about)}</p>\n${body}</section>`;
    })
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`Your data at ${shopName}`)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1F1A17;line-height:1.5}
dl{display:grid;grid-template-columns:minmax(7rem,max-content) 1fr;gap:.25rem 1rem;border:1px solid #ccc;border-radius:.5rem;padding:.75rem}
dt{font-weight:600}dd{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
</style>
</head>
<body>
<h1>${escapeHtml(`Your data at ${shopName}`)}</h1>
<p>${escapeHtml(`Everything held under ${records.email}, as of ${records.generatedAt}.`)}</p>
${sections}
</body>
</html>
`;
}
