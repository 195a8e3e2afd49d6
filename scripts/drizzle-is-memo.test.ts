import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Column, is, Name, Param, Placeholder, SQL, sql, StringChunk, Table, View } from "drizzle-orm";
import { integer, jsonb, PgColumn, pgTable, PgTable, PgText, text, timestamp } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { DRIZZLE_IS_SIGNATURE, drizzleIsMemo, memoizeDrizzleIs } from "./drizzle-is-memo.js";

// The ES module the server build bundles, beside the CommonJS entry `require` finds.
const installed = path.join(path.dirname(createRequire(import.meta.url).resolve("drizzle-orm")), "entity.js");
const source = fs.readFileSync(installed, "utf8");

/** The rewritten entity.js as a module of its own: a second copy of Drizzle's `is`, memoised. */
async function memoisedIs(): Promise<typeof is> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "drizzle-is-memo-"));
  const file = path.join(dir, "entity.mjs");
  fs.writeFileSync(file, memoizeDrizzleIs(source));
  return ((await import(pathToFileURL(file).href)) as { is: typeof is }).is;
}

const items = pgTable("items", { id: integer("id"), name: text("name"), at: timestamp("at"), data: jsonb("data") });
const values: [string, unknown][] = [
  ["a table", items],
  ["an integer column", items.id],
  ["a text column", items.name],
  ["a timestamp column", items.at],
  ["SQL", sql`select ${items.id} from ${items} where ${items.name} = ${"x"}`],
  ["a string chunk", new StringChunk("select")],
  ["a name", new Name("items")],
  ["a parameter", new Param(1)],
  ["a placeholder", sql.placeholder("id")],
  ["a plain object", { a: 1 }],
  ["an array", [1, 2]],
  ["a date", new Date(0)],
  ["an object without a prototype", Object.create(null)],
  ["null", null],
  ["a string", "text"],
];
const types = [Table, PgTable, Column, PgColumn, PgText, SQL, StringChunk, Name, Param, Placeholder, View];

function answer(check: typeof is, value: unknown, type: (typeof types)[number]) {
  try {
    return check(value, type as never);
  } catch (error) {
    return `throws ${(error as Error).constructor.name}`;
  }
}

describe("Drizzle's `is`, memoised for the server build (decision 151)", () => {
  it("finds the installed Drizzle's `is` once", () => {
    expect(source.split(DRIZZLE_IS_SIGNATURE)).toHaveLength(2);
    expect(() => memoizeDrizzleIs("export const nothing = 1;")).toThrow(/decision 151/);
  });

  it("answers exactly as Drizzle does, for every piece against every type, asked once and asked again", async () => {
    const memo = await memoisedIs();
    for (let round = 0; round < 2; round++)
      for (const [label, value] of values)
        for (const type of types)
          expect(answer(memo, value, type), `${label} is ${type.name}, round ${round + 1}`).toBe(
            answer(is, value, type),
          );
    // A class that is not a Drizzle entity throws as Drizzle's does, each time.
    class NotAnEntity {}
    expect(() => memo({}, NotAnEntity as never)).toThrow(/doesn't look like a Drizzle entity/);
    expect(() => memo({}, NotAnEntity as never)).toThrow(/doesn't look like a Drizzle entity/);
  });

  it("rewrites only drizzle-orm's entity.js", () => {
    const plugin = drizzleIsMemo();
    const transform = plugin.transform as (code: string, id: string) => { code: string } | null;
    expect(transform(source, installed)?.code).toContain("function isUncached(value, type) {");
    expect(transform(source, "/work/app/entity.js")).toBeNull();
  });
});
