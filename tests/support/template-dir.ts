import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

/**
 * Vitest's global setup: a folder for this run's template databases (decision 095), shared by every
 * test process. Nothing is built here: the first test that needs a database builds it, so a run of
 * unit tests alone costs nothing.
 */
export default function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "honey-test-templates-"));
  project.provide("templateDir", dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDir: string;
  }
}
