// Makes sure Debian's Chromium is there for the browser tests. A browser download cannot work on
// these machines, so Playwright is pointed at /usr/bin/chromium instead of its own build.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function ensureChromium() {
  if (fs.existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `Chromium is missing at ${CHROMIUM_PATH}. Install Debian's package as root: apt-get update && apt-get install ` +
        `-y chromium (or set CHROMIUM_PATH).`,
    );
    process.exit(1);
  }
  console.log("[chromium] not found: installing Debian's chromium package");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["-qq", "update"], { stdio: "inherit", env });
  execFileSync("apt-get", ["-qq", "install", "-y", "--no-install-recommends", "chromium", "fonts-dejavu-core"], {
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
