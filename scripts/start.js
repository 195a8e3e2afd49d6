// `npm start`: builds once when there is no build (a fresh clone), then serves the production bundle.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

if (!fs.existsSync(new URL(`../${process.env.BUILD_DIR ?? "build"}/server/index.js`, import.meta.url))) {
  console.log("[start] no build found: running `npm run build` first");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit", shell: process.platform === "win32" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import("../server.js");
