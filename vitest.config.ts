import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: [
      { find: "~", replacement: fileURLToPath(new URL("./app", import.meta.url)) },
      // The copy of React Router that @react-router/express loads (Node's "module-sync" build), not the
      // CommonJS one Vitest would pick: the request handler checks that the load context is an instance
      // of its own copy's RouterContextProvider (decision 110).
      {
        find: /^react-router$/,
        replacement: fileURLToPath(new URL("./node_modules/react-router/dist/development/index.mjs", import.meta.url)),
      },
    ],
  },
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "server/**/*.test.ts",
      "bench/**/*.test.ts",
      "scripts/**/*.test.ts",
      "tests/integration/**/*.test.ts",
    ],
    environment: "node",
    // Two test files at a time on a 2-core machine (the default was one): the integration files spend
    // much of their time waiting on PGlite's thread, and the run took 19 minutes one at a time and
    // 11 two at a time (decision 095). The heaviest tests (a thousand generated inputs, a dozen
    // production-cost key derivations) then take up to 35 s; the timeout is for a test that hangs.
    maxWorkers: 2,
    testTimeout: 90_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["tests/support/template-dir.ts"],
  },
});
