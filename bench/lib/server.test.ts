import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { POSTGRES_INSTANCE_NODE_ARGS } from "./server";

describe("the benches start a PostgreSQL instance as the README's systemd unit does", () => {
  it("with the unit's Node flags, no more and no fewer", () => {
    const readme = fs.readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const execStart = readme.match(/^ExecStart=\/usr\/bin\/node (.*)server\.js$/m);
    expect(execStart, "the README's unit starts node server.js").not.toBeNull();
    expect(execStart![1]!.split(" ").filter(Boolean)).toEqual(POSTGRES_INSTANCE_NODE_ARGS);
  });
});
