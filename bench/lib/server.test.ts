import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { PGLITE_INSTANCE_NODE_ARGS, POSTGRES_INSTANCE_NODE_ARGS } from "./server";

describe("the benches start a PostgreSQL instance as the deployment guide's systemd unit does", () => {
  it("with the unit's Node flags, no more and no fewer", () => {
    const guide = fs.readFileSync(new URL("../../docs/deployment.md", import.meta.url), "utf8");
    const execStart = guide.match(/^ExecStart=\/usr\/bin\/node (.*)server\.js$/m);
    expect(execStart, "the guide's unit starts node server.js").not.toBeNull();
    expect(execStart![1]!.split(" ").filter(Boolean)).toEqual(POSTGRES_INSTANCE_NODE_ARGS);
  });
});

describe("`npm start` runs the embedded database's server as the benches start it on PGlite", () => {
  it("with the same Node flags, no more and no fewer", () => {
    const manifest = JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    const start = (manifest.scripts.start as string).match(/^node (.*)scripts\/start\.js$/);
    expect(start, "npm start runs node scripts/start.js").not.toBeNull();
    expect(start![1]!.split(" ").filter(Boolean)).toEqual(PGLITE_INSTANCE_NODE_ARGS);
  });
});
