// Launches the site. Production: the built bundle in build/server. `--dev`: Vite with hot reload.
const dev = process.argv.includes("--dev");
// Configuration sees NODE_ENV exactly as the operator set it: only an explicit
// NODE_ENV=production turns on deployment rules (required secrets). Libraries (React, Express)
// still get their production builds when serving the built bundle.
const env = { ...process.env };

if (dev) {
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  const { startServer } = await vite.ssrLoadModule("./server/app.ts");
  await startServer({ vite, env });
} else {
  process.env.NODE_ENV ??= "production";
  const buildDir = new URL(`./${process.env.BUILD_DIR ?? "build"}/`, import.meta.url);
  const { startServer } = await import(new URL("server/index.js", buildDir).href);
  await startServer({ clientDir: new URL("client", buildDir).pathname, env });
}
