import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * PGlite 0.3 starts Postgres with settings written into its WebAssembly binary as command-line
 * arguments (`-c shared_buffers=128MB`), which beat postgresql.conf and ALTER SYSTEM and have no
 * option of their own. Postgres clears its whole buffer pool when it starts, so those 128 MB were
 * resident from the first second on a shop whose whole database is a few megabytes (decision 138).
 * The app hands PGlite its own binary with smaller values, each the same length as the original, so
 * nothing else in the binary moves.
 */
export const PGLITE_SETTINGS: readonly (readonly [stock: string, ours: string])[] = [
  ["shared_buffers=128MB", "shared_buffers=16MB"],
  ["wal_buffers=4MB", "wal_buffers=1MB"],
];

/**
 * The binary with each stock setting replaced, or why it could not be (a PGlite whose binary no
 * longer holds one of them exactly once: its settings then stay stock, and a test says so first).
 */
export function withPgliteSettings(
  binary: Uint8Array,
  settings = PGLITE_SETTINGS,
): { binary: Uint8Array<ArrayBuffer> } | { refused: string } {
  // A copy with an ArrayBuffer of its own, never a slice of Node's shared pool: it may be transferred.
  const copy = new Uint8Array(binary);
  const out = Buffer.from(copy.buffer);
  for (const [stock, ours] of settings) {
    // A C string: the setting ends at its NUL, so the shorter value is padded with more NULs.
    const needle = Buffer.from(`${stock}\0`);
    const at = out.indexOf(needle);
    if (at < 0 || out.indexOf(needle, at + 1) >= 0) return { refused: `"${stock}" is not in PGlite's binary once` };
    if (Buffer.byteLength(ours) > stock.length) return { refused: `"${ours}" is longer than "${stock}"` };
    out.fill(0, at, at + needle.length);
    out.write(ours, at, "latin1");
  }
  return { binary: copy };
}

/**
 * The installed PGlite's binary with the app's settings, a fresh copy for each PGlite (its receiver may
 * take it: a worker thread is handed it without a copy). Undefined keeps PGlite's own binary. Compiled
 * where it is used: on PGlite's worker, off the thread that is loading the app meanwhile.
 */
export function pgliteBinaryWithSettings(): Uint8Array<ArrayBuffer> | undefined {
  const dist = path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  const result = withPgliteSettings(fs.readFileSync(path.join(dist, "pglite.wasm")));
  if ("refused" in result) {
    console.warn(`[db] PGlite keeps its stock memory settings: ${result.refused}`);
    return undefined;
  }
  return result.binary;
}
