import type { Database } from "~/db/client.server";

interface LoggedSession {
  logger: { logQuery(query: string, params: unknown[]): void };
  options: { logger?: LoggedSession["logger"] };
}

/**
 * Counts the SQL statements Drizzle sends while `run` runs (the bag's speed, issue 39). Drizzle's
 * session logs every prepared query to its logger, and a transaction's session is made from the
 * session's options, so both are swapped for a counter and put back after. Test-only: it reaches
 * into Drizzle's session, which the app never does.
 */
export async function countQueries<T>(
  db: Database,
  run: () => Promise<T>,
): Promise<{ result: T; queries: string[]; rounds: number }> {
  const session = (db as unknown as { session: LoggedSession }).session;
  const queries: string[] = [];
  // Statements sent in the same turn of the event loop, before any answer could come back, are one
  // round: the caller waits on the database once for them all (decision 141). An answer that came
  // back within that turn would merge two rounds into one, so the count is never more than the waits.
  let rounds = 0;
  let roundOpen = false;
  const before = { logger: session.logger, options: session.options };
  const counter = {
    logQuery(query: string, params: unknown[]) {
      queries.push(query);
      if (!roundOpen) {
        roundOpen = true;
        rounds += 1;
        setImmediate(() => (roundOpen = false));
      }
      before.logger.logQuery(query, params);
    },
  };
  session.logger = counter;
  session.options = { ...session.options, logger: counter };
  try {
    return { result: await run(), queries, rounds };
  } finally {
    session.logger = before.logger;
    session.options = before.options;
  }
}
