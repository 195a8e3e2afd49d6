// The server build's copy of Drizzle answers `is(value, type)` from memory (decision 151).
//
// Drizzle builds every statement's SQL by asking of each piece "is it a string? a name? SQL? a table? a
// column?…", in that order, with `is`. A piece of another kind fails the first few checks, and each
// failure walks the piece's class chain looking for the type's `entityKind` (a fallback for two copies of
// Drizzle in one process). Under the soak `is` was 4.5% of the server's main thread, about half of the
// time spent building SQL. Its answer depends only on the piece's class and the type, and classes do not
// change, so the build remembers it per pair: the same answers, the walk once per pair.
//
// Applied only to the production build's bundled Drizzle (vite.config.ts); the development server and
// the tests run Drizzle as installed. A Drizzle whose entity.js no longer reads as expected fails the
// build instead of being served unpatched.

/** The start of `is` in drizzle-orm/entity.js (0.45), which the memo wraps. */
export const DRIZZLE_IS_SIGNATURE = "function is(value, type) {";

const MEMO = `
const isAnswers = new WeakMap();
function is(value, type) {
  if (!value || typeof value !== "object") return false;
  if (value instanceof type) return true;
  const cls = Object.getPrototypeOf(value)?.constructor;
  if (typeof cls !== "function") return isUncached(value, type);
  let byType = isAnswers.get(cls);
  if (byType === undefined) isAnswers.set(cls, (byType = new WeakMap()));
  let answer = byType.get(type);
  // A throw (a type that is not a Drizzle entity) is not remembered: it throws again next time.
  if (answer === undefined) byType.set(type, (answer = isUncached(value, type)));
  return answer;
}
`;

/** entity.js with `is` renamed `isUncached` and a memoising `is` in its place; throws if `is` is not found. */
export function memoizeDrizzleIs(source) {
  if (source.split(DRIZZLE_IS_SIGNATURE).length !== 2)
    throw new Error(`drizzle-orm/entity.js no longer defines \`${DRIZZLE_IS_SIGNATURE}\` once: see decision 151`);
  // The file's source map no longer matches it.
  const code = source.replace(/^\/\/# sourceMappingURL=.*$/m, "");
  return code.replace(DRIZZLE_IS_SIGNATURE, "function isUncached(value, type) {") + MEMO;
}

const ENTITY_MODULE = /[\\/]node_modules[\\/]drizzle-orm[\\/]entity\.js$/;

/**
 * The Vite plugin: rewrites drizzle-orm/entity.js as it is bundled into the server build.
 * @returns {import("vite").Plugin}
 */
export function drizzleIsMemo() {
  let applied = false;
  return {
    name: "honey:drizzle-is-memo",
    apply: "build",
    transform(code, id) {
      if (!ENTITY_MODULE.test(id.split("?", 1)[0])) return null;
      applied = true;
      return { code: memoizeDrizzleIs(code), map: null };
    },
    buildEnd() {
      // The server build must have bundled Drizzle (vite.config.ts's ssr.noExternal) for the memo to apply.
      if (this.environment?.config.consumer === "server" && !applied)
        this.error("drizzle-orm/entity.js was not bundled into the server build: see decision 151");
    },
  };
}
