// npm audit of the production dependencies, recorded in bench/results/audit.txt. Exits 1 on a high or
// critical finding; when the registry's advisory service cannot be reached (as from the build machines,
// whose registry mirror refuses audit requests) it says so and exits 0: there is nothing to judge.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const result = spawnSync("npm", ["audit", "--omit=dev", "--json"], { encoding: "utf8" });
let report;
try {
  report = JSON.parse(result.stdout);
} catch {
  report = undefined;
}
const at = new Date().toISOString();
let line;
let failed = false;
if (!report || report.error || !report.metadata) {
  // Keep the reason, not the address it came from.
  const reason = String(report?.message ?? report?.error?.summary ?? "no answer").replace(
    /\s*-?\s*(GET|POST)?\s*https?:\/\/\S+/g,
    "",
  );
  line = `${at} npm audit --omit=dev: the advisory service could not be reached (${reason}); nothing was checked.`;
} else {
  const v = report.metadata.vulnerabilities;
  failed = v.high + v.critical > 0;
  line =
    `${at} npm audit --omit=dev: ${v.critical} critical, ${v.high} high, ${v.moderate} moderate, ${v.low} low ` +
    `in ${report.metadata.dependencies?.prod ?? "?"} production dependencies.`;
}
fs.mkdirSync("bench/results", { recursive: true });
fs.writeFileSync("bench/results/audit.txt", `${line}\n`);
console.log(line);
process.exit(failed ? 1 : 0);
