/* global module */
// The layers of app/ (docs/layers.md, decision 109), checked by `npm run lint` with dependency-cruiser.
// Every import from one app/ folder into another must match an `allowed` line below; a circle between
// app/ folders or modules, or a value import of a *.server module into components/, is forbidden.
const TOP = ["dashboard", "home", "privacy", "bag"]; // pages that gather several features
const ORDERS = ["orders"]; // the top feature: it sells what the others define
const FEATURES = [
  "memberships",
  "tickets",
  "events",
  "catalog",
  "blog",
  "contact",
  "gallery",
  "newsletters",
  "waitlist",
  "pricing", // a member's perks read her membership (decision 128)
];
const LOWER = ["stock", "payments", "email", "analytics", "media", "settings", "admin", "auth"];
const BASE = ["db", "lib", "content", "fonts"];
// The configuration and the request context sit at the top of app/ but belong to the base layer.
const BASE_FILES = "^app/(config|context)\\.server\\.ts$";
const SHELL = ["^app/routes/", "^app/(root\\.tsx|entry\\.server\\.tsx|routes\\.ts)$"];

const folders = (...groups) => `^app/(${groups.flat().join("|")})/`;
const layer = (from, ...mayUse) => ({
  from: { path: folders(from) },
  to: { path: [folders(from, ...mayUse), BASE_FILES] },
});

module.exports = {
  allowedSeverity: "error",
  allowed: [
    // Outside app/ (packages, node:*, React Router's generated route types) is not a layer question.
    { from: {}, to: { pathNot: "^app/" } },
    // The app shell and the routes may use every layer.
    { from: { path: SHELL }, to: { path: "^app/" } },
    // components/: the UI kit, and the types and pure modules of every layer below (see components-no-server).
    {
      from: { path: folders("components") },
      to: { path: [folders("components", TOP, ORDERS, FEATURES, LOWER, BASE), BASE_FILES] },
    },
    layer(TOP, ORDERS, FEATURES, LOWER, BASE),
    layer(ORDERS, FEATURES, LOWER, BASE),
    // Features may use one another, as long as no two of them form a circle (no-folder-circles).
    layer(FEATURES, LOWER, BASE),
    layer(LOWER, BASE),
    { from: { path: [folders(BASE), BASE_FILES] }, to: { path: [folders(BASE), BASE_FILES] } },
  ],
  forbidden: [
    {
      name: "components-no-server",
      comment:
        "components/ also run in the browser: they may import a *.server module's types (erased), never its values.",
      severity: "error",
      from: { path: "^app/components/" },
      to: { path: "\\.server\\.tsx?$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "no-folder-circles",
      comment:
        "Two app/ folders that import each other have no order between them: one side must move (docs/layers.md).",
      severity: "error",
      scope: "folder",
      from: { path: "^app/[^/]+" },
      to: { path: "^app/[^/]+", circular: true },
    },
    {
      name: "no-module-circles",
      comment:
        "Modules that import each other, even inside one folder (the schema files, the members modules did): move the " +
        "shared part into its own module.",
      severity: "error",
      from: { path: "^app/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["^node_modules", "^\\.react-router", "\\.test\\.tsx?$"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"] },
  },
};
