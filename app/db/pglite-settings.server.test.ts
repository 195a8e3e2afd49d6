import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "./client.server";
import { pgliteBinaryWithSettings, withPgliteSettings } from "./pglite-settings.server";

describe("PGlite's memory settings (decision 138)", () => {
  it("finds each stock setting once in the installed PGlite's binary", () => {
    // An upgraded PGlite whose binary changed fails here first, not as a quiet return to 128 MB.
    expect(pgliteBinaryWithSettings()).toBeInstanceOf(Uint8Array);
  });

  it("replaces a setting in place, padded with NULs, and leaves the rest of the binary as it was", () => {
    const binary = Buffer.from("\0a=1\0shared_buffers=128MB\0wal_buffers=4MB\0z\0");
    const result = withPgliteSettings(binary);
    if ("refused" in result) throw new Error(result.refused);
    expect(result.binary).toHaveLength(binary.length);
    expect(Buffer.from(result.binary).toString("latin1")).toBe("\0a=1\0shared_buffers=16MB\0\0wal_buffers=1MB\0z\0");
    expect(binary.toString("latin1")).toContain("shared_buffers=128MB"); // the input is not changed
  });

  it("refuses a binary that holds a setting twice or not at all, or a value longer than the original", () => {
    const twice = Buffer.from("shared_buffers=128MB\0shared_buffers=128MB\0wal_buffers=4MB\0");
    expect(withPgliteSettings(twice)).toEqual({ refused: '"shared_buffers=128MB" is not in PGlite\'s binary once' });
    expect(withPgliteSettings(Buffer.from("wal_buffers=4MB\0"))).toHaveProperty("refused");
    expect(withPgliteSettings(Buffer.from("x=1\0"), [["x=1", "x=100"]])).toEqual({
      refused: '"x=100" is longer than "x=1"',
    });
  });

  it("starts Postgres with them, on the worker and in process", async () => {
    for (const pgliteWorker of [true, false]) {
      const handle = await openDatabase({ pgliteWorker });
      try {
        const result = await handle.db.execute(
          sql`select name, current_setting(name) as setting from pg_settings where name in ('shared_buffers', 'wal_buffers') order by name`,
        );
        expect((result as unknown as { rows: unknown[] }).rows).toEqual([
          { name: "shared_buffers", setting: "16MB" },
          { name: "wal_buffers", setting: "1MB" },
        ]);
      } finally {
        await handle.close();
      }
    }
  });
});
