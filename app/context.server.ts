import type { AppConfig } from "./config.server";
import type { Database, DatabaseHandle } from "./db/client.server";
import type { Clock } from "./lib/clock";

/**
 * What every loader and action receives as `context`: the database is never a global import.
 * A type alias rather than an interface so that it fits React Router's index-signature context type.
 */
export type AppContext = {
  db: Database;
  dbHandle: DatabaseHandle;
  config: AppConfig;
  clock: Clock;
  /** A per-request CSP nonce for the inline scripts React Router renders. */
  nonce: string;
  /** The client's address, for rate limits only (never stored). */
  clientIp: string;
};

declare module "react-router" {
  interface AppLoadContext extends AppContext {}
}
