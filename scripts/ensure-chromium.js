// Makes sure Debian's Chromium is there for the browser tests. A browser download cannot work on
// these machines, so Playwright is pointed at Debian's build instead of its own.
//
// The tests drive Debian's headless shell (package chromium-headless-shell: the same Chromium build
// without the desktop browser around it), as Playwright drives its own headless shell when it may
// download one. The full browser spent about a third more CPU on each page, and seconds of start-up
// work per launch, and the browser tests are most of CI's time (decision 150). The page budgets'
// Lighthouse keeps the full browser (/usr/bin/chromium), which .ci/run installs too.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";
const PACKAGE = "chromium-headless-shell";

export function ensureChromium() {
  if (fs.existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `Chromium's headless shell is missing at ${CHROMIUM_PATH}. Install Debian's package as root: apt-get update && ` +
        `apt-get install -y ${PACKAGE} (or set CHROMIUM_PATH to another Chromium).`,
    );
    process.exit(1);
  }
  console.log(`[chromium] not found: installing Debian's ${PACKAGE} package`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["-qq", "update"], { stdio: "inherit", env });
  execFileSync("apt-get", ["-qq", "install", "-y", "--no-install-recommends", PACKAGE, "fonts-dejavu-core"], {
    stdio: "inherit",
    env,
  });
  if (!fs.existsSync(CHROMIUM_PATH)) {
    console.error(`apt-get finished but ${CHROMIUM_PATH} is still missing`);
    process.exit(1);
  }
  return CHROMIUM_PATH;
}

if (import.meta.url === `file://${process.argv[1]}`) ensureChromium();
