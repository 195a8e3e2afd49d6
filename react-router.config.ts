import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // The whole route manifest comes with the app's scripts instead of being fetched link by link:
  // lazy discovery walks every link on the page inside hydration's longest task (decision 070).
  routeDiscovery: { mode: "initial" },
  // BUILD_DIR lets parallel test runs build side by side without overwriting each other.
  buildDirectory: process.env.BUILD_DIR ?? "build",
  // The admin's session is checked once, by its layouts' middleware (decision 110).
  future: { v8_middleware: true },
} satisfies Config;
