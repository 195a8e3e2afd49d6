import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { dropPostgresDatabases, SCRATCH_LIST } from "./postgres-scratch";

/**
 * Vitest's global setup: a folder for this run's template databases (decision 095), shared by every
 * test process. Nothing is built here: the first test that needs a database builds it, so a run of
 * unit tests alone costs nothing. At the end, the PostgreSQL databases the run made (its scratch
 * copies a test left open, and the templates) are dropped.
 */
export default function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "honey-test-templates-"));
  project.provide("templateDir", dir);
  return async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (url) await dropPostgresDatabases(url, madeOnServer(dir));
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

/** Every database this run made on the PostgreSQL server: scratch copies first, then their templates. */
function madeOnServer(dir: string): string[] {
  const read = (file: string) => fs.readFileSync(path.join(dir, file), "utf8");
  const listed = fs.existsSync(path.join(dir, SCRATCH_LIST)) ? read(SCRATCH_LIST).split("\n") : [];
  const templates = fs
    .readdirSync(dir)
    .filter((f) => /^postgres-.*\.name$/.test(f))
    .map(read);
  // A template is also in the list (it was made as a scratch database): drop it after its copies.
  const names = [...new Set(listed.filter(Boolean))];
  return [...names.filter((n) => !templates.includes(n)), ...templates];
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDir: string;
  }
}
