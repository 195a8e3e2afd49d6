// Launches the site. Production: the built bundle in build/server. `--dev`: Vite with hot reload.
const dev = process.argv.includes("--dev");
// Serving the built app is production (Secure `__Host-` cookie, HSTS) unless NODE_ENV asks for
// development; `--dev` is development. Only an explicit NODE_ENV=production also declares a
// deployment, whose secrets must be given instead of generated, so `npm start` on a laptop still
// works with nothing configured (decision 079).
const env = { ...process.env };

if (dev) {
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  const { startServer } = await vite.ssrLoadModule("./server/app.ts");
  await startServer({ vite, env, defaultNodeEnv: "development" });
} else {
  process.env.NODE_ENV ??= "production";
  const buildDir = new URL(`./${process.env.BUILD_DIR ?? "build"}/`, import.meta.url);
  const { startServer } = await import(new URL("server/index.js", buildDir).href);
  await startServer({ clientDir: new URL("client", buildDir).pathname, env, defaultNodeEnv: "production" });
}
