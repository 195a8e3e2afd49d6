// Reads the JSON reports of Vitest and Playwright for the names of the tests that failed (or, for
// Playwright, passed only on retry), with the first line of each error. Used by scripts/test.js, and
// by .ci/run for the PostgreSQL run of the integration tests:
//   node scripts/test-reports.js vitest REPORT.json   prints each failed test on a line of its own
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";

const firstLine = (text) =>
  stripVTControlCharacters(String(text ?? ""))
    .trim()
    .split("\n")[0]
    .slice(0, 200);

/** Vitest's JSON report: every failed test, with the first line of its message. */
export function vitestFailures(report) {
  return (report.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? [])
      .filter((test) => test.status === "failed")
      .map(
        (test) =>
          `${path.relative(process.cwd(), file.name)} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`,
      ),
  );
}

/** Playwright's JSON report: the tests whose outcome is unexpected or flaky, with their first error. */
export function playwrightOutcomes(report, outcome) {
  const found = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== outcome) continue;
        const error = test.results?.find((r) => r.error)?.error?.message;
        found.push(`${spec.file} > ${[...titles, spec.title].join(" > ")}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? [])
      walk(child, child.title && child.title !== child.file ? [...titles, child.title] : titles);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return found;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [kind, file] = process.argv.slice(2);
  if (kind !== "vitest" || !file) {
    console.error("usage: node scripts/test-reports.js vitest REPORT.json");
    process.exit(2);
  }
  let report;
  try {
    report = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    console.log(`no report at ${file}`);
    process.exit(1);
  }
  for (const line of vitestFailures(report)) console.log(line);
}
