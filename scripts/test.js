// `npm test`: lint, typecheck, unit and integration tests (Vitest), a production build, and the
// end-to-end suite (Playwright in Debian's Chromium). Ends with one line "N passed, N failed".
//   --only=lint,typecheck,unit,e2e   run a subset
//   --summary=FILE                   also write the counts as JSON (used by .ci/run)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureChromium } from "./ensure-chromium.js";
import { playwrightOutcomes, vitestFailures } from "./test-reports.js";

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value ?? "true"];
  }),
);
const only = args.only ? new Set(args.only.split(",")) : null;
const wanted = (name) => !only || only.has(name);
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "honey-test-"));
const results = [];
// Named again at the very end, so the tail of a long CI log says which test failed or needed a retry.
const failures = [];
const flaky = [];

const startedAt = Date.now();
function run(command, commandArgs, env = {}) {
  const elapsed = Math.round((Date.now() - startedAt) / 1000);
  console.log(
    `\n$ ${command} ${commandArgs.join(" ")}   [${Math.floor(elapsed / 60)}m${String(elapsed % 60).padStart(2, "0")}s]`,
  );
  const result = spawnSync(command, commandArgs, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

function record(suite, passed, failed, skipped = 0) {
  results.push({ suite, passed, failed, skipped });
  console.log(`[${suite}] ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

if (wanted("lint")) {
  // ESLint, then the layers of app/ (docs/layers.md): an upward import or a circle between folders fails here.
  const ok = run("npm", ["run", "lint"]);
  record("lint", ok ? 1 : 0, ok ? 0 : 1);
}

if (wanted("typecheck")) {
  const ok = run("npx", ["react-router", "typegen"]) && run("npx", ["tsc", "--noEmit"]);
  record("typecheck", ok ? 1 : 0, ok ? 0 : 1);
}

if (wanted("unit")) {
  const out = path.join(reportDir, "vitest.json");
  const ok = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`]);
  const report = readJson(out);
  if (report) {
    record(
      "unit+integration",
      report.numPassedTests,
      report.numFailedTests + (ok || report.numFailedTests ? 0 : 1),
      report.numPendingTests,
    );
    failures.push(...vitestFailures(report));
  } else {
    record("unit+integration", 0, 1);
  }
}

if (wanted("e2e")) {
  ensureChromium();
  const buildDir = process.env.BUILD_DIR ?? "build";
  const built = run("npx", ["react-router", "build"], { BUILD_DIR: buildDir });
  if (!built) {
    record("build", 0, 1);
  } else {
    const out = path.join(reportDir, "playwright.json");
    const ok = run("npx", ["playwright", "test", "--reporter=list,json"], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: out,
      BUILD_DIR: buildDir,
    });
    const report = readJson(out);
    const stats = report?.stats;
    if (stats) {
      // A flaky test passed on retry: it counts as passed, and is named in the summary.
      record("e2e", stats.expected + stats.flaky, stats.unexpected + (ok || stats.unexpected ? 0 : 1), stats.skipped);
      failures.push(...playwrightOutcomes(report, "unexpected"));
      flaky.push(...playwrightOutcomes(report, "flaky"));
    } else {
      record("e2e", 0, 1);
    }
  }
}

const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const skipped = results.reduce((n, r) => n + r.skipped, 0);
if (args.summary)
  fs.writeFileSync(args.summary, JSON.stringify({ passed, failed, skipped, results, failures, flaky }, null, 2));
console.log("\nSummary:");
for (const r of results)
  console.log(
    `  ${r.suite.padEnd(18)} ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ""}`,
  );
for (const name of failures) console.log(`  failed: ${name}`);
for (const name of flaky) console.log(`  passed on retry: ${name}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed ? 1 : 0);
