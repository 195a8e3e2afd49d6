/**
 * The PostgreSQL databases a test run makes (tests/support/test-db.ts), and their dropping. Kept apart
 * from test-db.ts so that Vitest's global setup can use it without loading the app.
 */

/**
 * The scratch databases this run made on a PostgreSQL server, one name a line, for the global
 * teardown to drop what a test left open (tests/support/template-dir.ts).
 */
export const SCRATCH_LIST = "postgres-scratch.txt";

/** Drops these databases on the server in `url`, closing their connections first; never throws. */
export async function dropPostgresDatabases(url: string, names: string[]): Promise<void> {
  if (!names.length) return;
  const pg = (await import("pg")).default;
  const admin = new pg.Client({ connectionString: url });
  try {
    await admin.connect();
    for (const name of names) await admin.query(`drop database if exists "${name}" with (force)`);
  } catch (error) {
    console.error(`[test-db] could not drop ${names.join(", ")}: ${(error as Error).message}`);
  } finally {
    await admin.end().catch(() => {});
  }
}
